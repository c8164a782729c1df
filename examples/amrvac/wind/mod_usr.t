! mod_usr.t — a clumpy planar wind in MPI-AMRVAC (2D or 3D: setup.pl -d,
! isothermal MHD): the x-minimum boundary is an inflow of speed v_w along
! +x whose density is tbrf's frozen log-normal field carried by the wind
! (doc/streaming.md, "Inflow boundaries"), filled in usr_special_bc one
! boundary block at a time through tbrf_blocks (examples/amrvac/common).
!
! AMRVAC's boundary region ixO^L at iB = 1 is the nghostcells planes
! left of the domain across the block's whole ixG range across the flow,
! so the edge and corner ghost cells are filled too. With periodic (the
! default) the field is periodic across the flow with the box's periods
! (tbrf_inflow_create_periodic), so a box periodic in y (and z) has no
! seam at its faces and the corner cells hold their periodic images' values;
! otherwise the turning-bands sampler, whose tube covers the corners.
! The sampler is made at the first fill (AMRVAC fills the ghost cells
! while it sets the initial state, before usr_before_main_loop), on every
! rank with the same arguments, for the run's time_max.
!
! usr_list (in amrvac.par):
!   use_tbrf     .false.: a uniform inflow of density rho_w (for the cost)
!   periodic     .true.: the field periodic across the flow (the box's
!                periods), its model's variance set so that the lattice's
!                variance is 1; .false.: the turning-bands sampler
!   v_w, rho_w   the wind's speed (sound speed 1) and mean density
!   sigma        the standard deviation of ln rho at the boundary
!   k_min, k_max the clumps' band, in units of 2 pi / (the domain's y length)
!   seed         the field's seed
!   b0           a uniform field along x (along the flow)
!   stat_every   iterations between lines of wind_stats.dat
module mod_usr
  use mod_mhd
  use tbrf
  use tbrf_blocks
  implicit none
  logical :: use_tbrf = .true., periodic = .true.
  double precision :: v_w = 5.d0, rho_w = 1.d0, sigma = 0.5d0, k_min = 2.d0, k_max = 4.d0, b0 = 0.5d0
  integer :: seed = 33, stat_every = 50
  type(tbrf_inflow), save :: wind
  logical, save :: wind_made = .false.
  ! boundary statistics of the filled cells inside the domain's y-z range:
  ! count, sum rho, sum ln rho, sum (ln rho)^2 (this rank's)
  double precision, save :: acc(4) = 0.d0
  ! CPU seconds of this rank inside the fills, and at the start
  double precision, save :: cpu_tbrf = 0.d0, cpu_start = -1.d0

contains

  subroutine usr_init()
    call usr_params_read(par_files)
    usr_init_one_grid => initonegrid_usr
    usr_special_bc => inflow_bc
    usr_process_global => wind_log
    call set_coordinate_system('Cartesian')
    call mhd_activate()
  end subroutine usr_init

  subroutine usr_params_read(files)
    character(len=*), intent(in) :: files(:)
    integer :: n
    namelist /usr_list/ use_tbrf, periodic, v_w, rho_w, sigma, k_min, k_max, seed, b0, stat_every
    do n = 1, size(files)
      open(unitpar, file=trim(files(n)), status="old")
      read(unitpar, usr_list, end=111)
111   close(unitpar)
    end do
  end subroutine usr_params_read

  ! The domain starts filled with the mean wind.
  subroutine initonegrid_usr(ixG^L,ix^L,w,x)
    integer, intent(in) :: ixG^L, ix^L
    double precision, intent(in) :: x(ixG^S,1:ndim)
    double precision, intent(inout) :: w(ixG^S,1:nw)
    w(ix^S,rho_) = rho_w
    w(ix^S,mom(:)) = 0.d0
    w(ix^S,mom(1)) = rho_w * v_w
    w(ix^S,mag(:)) = 0.d0
    w(ix^S,mag(1)) = b0
  end subroutine initonegrid_usr

  ! The sampler of the tube the x-minimum ghost cells (corners included)
  ! sweep back along the wind until time_max: the domain's ghost region
  ! [x_min - (nghost - 1/2) dx, x_min - dx/2] along the flow and its whole
  ! ghost range across it.
  subroutine make_wind()
    type(tbrf_model) :: model
    type(tbrf_plan) :: lattice
    type(tbrf_plan_info) :: info
    type(tbrf_opts) :: opts
    double precision :: dx(ndim), dlo(ndim), dhi(ndim), glo(ndim), ghi(ndim), v(ndim), period(ndim), &
                        lo(3), hi(3), len(ndim)
    integer :: st
    dlo = [ {xprobmin^D|, } ]
    dhi = [ {xprobmax^D|, } ]
    dx = (dhi - dlo) / [ {domain_nx^D|, } ]
    glo = dlo - (nghostcells - 0.5d0) * dx
    ghi = dhi + (nghostcells - 0.5d0) * dx
    ghi(1) = dlo(1) - 0.5d0 * dx(1)
    v = 0.d0
    v(1) = v_w
    period = dhi - dlo
    period(1) = 0.d0
    call tbrf_model_powerlaw(model, -11.d0 / 3, 2 * dpi * k_min / period(2), 2 * dpi * k_max / period(2))
    call tbrf_model_set_variance(model, 1.d0)
    ! one thread a fill: the ranks (and AMRVAC's OpenMP loop) share the
    ! cores; with OpenMP's default (every core the process sees) a rank
    ! started without mpirun's binding spends most of a fill's CPU time
    ! in the team's threads spinning
    call tbrf_default_opts(opts)
    opts%threads = 1
    call tbrf_inflow_tube(ndim, glo, ghi, v, time_max, lo, hi, stat=st)
    if (st == TBRF_OK .and. periodic) then
      ! The periodic field's variance is the model's spectrum summed over
      ! the box's lattice (doc/streaming.md, "A wind periodic across the
      ! flow"), the variance_resolved of the periodic plan the sampler is
      ! made of (the same lengths and cells); the model is rescaled so that
      ! this sum is 1, as the log-normal density's sigma assumes.
      len = period
      len(1) = 2 * (hi(1) - lo(1)) + maxval(period)
      call tbrf_make_periodic_plan(lattice, model, ndim, lo, len, ceiling(len / dx(1)), seed, opts, stat=st)
      if (st == TBRF_OK) call tbrf_plan_get_info(lattice, info, stat=st)
      if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_plan_message(lattice))
      call tbrf_destroy(lattice)
      if (mype == 0) write(*, '(a, f8.5)') ' tbrf: the box lattice''s variance at unit model variance ', &
        info%variance_resolved
      call tbrf_model_set_variance(model, 1.d0 / info%variance_resolved)
      call tbrf_inflow_create_periodic(wind, model, ndim, lo, hi, period, dx(1), seed, 0, v, opts, stat=st)
    else if (st == TBRF_OK) then
      call tbrf_inflow_create(wind, model, ndim, lo, hi, dx(1), seed, 0, v, opts=opts, stat=st)
    end if
    if (st == TBRF_OK) call tbrf_inflow_set_density(wind, TBRF_DENSITY_LOGNORMAL, rho_w, sigma, stat=st)
    if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_inflow_message(wind))
    call tbrf_model_destroy(model)
    wind_made = .true.
    if (mype == 0) call seam_check(dlo, dhi, dx)
  end subroutine make_wind

  ! The seam across the y faces: at the ghost plane next to the domain,
  ! over 500 times to time_max (and every z centre in 3D), the mean
  ! squared difference of ln rho between the first and the last cell
  ! across y (neighbours through the periodic face) against that between
  ! the first and the second (neighbours inside). About 1 for a wind
  ! periodic across the flow, 2 var / (the neighbours' difference) for
  ! one that is not. Printed by rank 0.
  subroutine seam_check(dlo, dhi, dx)
    double precision, intent(in) :: dlo(ndim), dhi(ndim), dx(ndim)
    integer, parameter :: nt = 500
    double precision, allocatable :: xyz(:, :), r(:)
    double precision :: dface, dinside
    integer :: nz, i, k, st
    nz = 1
    {^IFTHREED
    nz = domain_nx3 }
    allocate(xyz(ndim, 3 * nz), r(3 * nz))
    xyz(1, :) = dlo(1) - 0.5d0 * dx(1)
    do k = 1, nz
      xyz(2, 3 * k - 2:3 * k) = [dlo(2) + 0.5d0 * dx(2), dlo(2) + 1.5d0 * dx(2), dhi(2) - 0.5d0 * dx(2)]
      {^IFTHREED
      xyz(3, 3 * k - 2:3 * k) = dlo(3) + (k - 0.5d0) * dx(3) }
    end do
    dface = 0.d0
    dinside = 0.d0
    do i = 0, nt - 1
      call tbrf_inflow_fill(wind, time_max * i / nt, xyz, r, stat=st)
      if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_inflow_message(wind))
      r = log(r)
      dface = dface + sum((r(1::3) - r(3::3))**2)
      dinside = dinside + sum((r(1::3) - r(2::3))**2)
    end do
    write(*, '(a, f8.3)') ' tbrf: seam across y: <(ln rho difference)^2> through the face / inside = ', &
      dface / dinside
  end subroutine seam_check

  subroutine inflow_bc(qt,ixI^L,ixO^L,iB,w,x)
    integer, intent(in) :: ixI^L, ixO^L, iB
    double precision, intent(in) :: qt, x(ixI^S,1:ndim)
    double precision, intent(inout) :: w(ixI^S,1:nw)
    double precision :: rho(ixO^S), h(ndim)
    logical :: inside(ixO^S)
    integer :: st, d
    double precision :: c0, c1
    call cpu_time(c0)
    if (iB /= 1) call mpistop('inflow_bc: only the x-minimum boundary is special')
    if (use_tbrf) then
      !$omp critical (wind_make)
      if (.not. wind_made) call make_wind()
      !$omp end critical (wind_make)
      ! the spacing from the block's own centres (dxlevel is not set for
      ! every call of the boundary fill)
      h = [ {(x(ixImax^DD,^D) - x(ixImin^DD,^D)) / (ixImax^D - ixImin^D)|, } ]
      call tbrf_block_inflow(wind, qt, [ {ixImin^D|, } ], [ {ixImax^D|, } ], [ {ixOmin^D|, } ], &
                             [ {ixOmax^D|, } ], x, h, rho, stat=st)
      if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_inflow_message(wind))
      ! the statistics count the ghost cells inside the domain's range
      ! across the flow (not the corners)
      inside = .true.
      {^NOONED
      inside = inside .and. x(ixO^S,2) > xprobmin2 .and. x(ixO^S,2) < xprobmax2 }
      {^IFTHREED
      inside = inside .and. x(ixO^S,3) > xprobmin3 .and. x(ixO^S,3) < xprobmax3 }
      ! AMRVAC's OpenMP build fills the blocks from several threads
      !$omp critical (wind_acc)
      acc = acc + [dble(count(inside)), sum(rho, mask=inside), sum(log(rho), mask=inside), &
                   sum(log(rho)**2, mask=inside)]
      !$omp end critical (wind_acc)
    else
      rho = rho_w
    end if
    w(ixO^S,rho_) = rho
    do d = 1, ndir
      w(ixO^S,mom(d)) = 0.d0
      w(ixO^S,mag(d)) = 0.d0
    end do
    w(ixO^S,mom(1)) = rho * v_w
    w(ixO^S,mag(1)) = b0
    call cpu_time(c1)
    !$omp atomic
    cpu_tbrf = cpu_tbrf + (c1 - c0)
  end subroutine inflow_bc

  ! Every stat_every iterations, the boundary's statistics so far (all
  ! fills, all ranks): time, cells, <rho>, <ln rho>, var ln rho, and rank
  ! 0's CPU seconds since the first call in the boundary fill and in all.
  subroutine wind_log(iit,qt)
    integer, intent(in) :: iit
    double precision, intent(in) :: qt
    double precision :: tot(4), mlog, now
    call cpu_time(now)
    if (cpu_start < 0) then
      cpu_start = now
      cpu_tbrf = 0.d0
    end if
    if (mod(iit, stat_every) /= 0) return
    call MPI_ALLREDUCE(acc, tot, 4, MPI_DOUBLE_PRECISION, MPI_SUM, icomm, ierrmpi)
    if (mype == 0 .and. tot(1) > 0) then
      mlog = tot(3) / tot(1)
      open(unit=31, file='wind_stats.dat', position='append')
      write(31, '(i8, es14.6, es14.6, 3es16.8, 2f12.3)') iit, qt, tot(1), tot(2) / tot(1), mlog, &
        tot(4) / tot(1) - mlog**2, cpu_tbrf, now - cpu_start
      close(31)
    end if
  end subroutine wind_log
end module mod_usr
