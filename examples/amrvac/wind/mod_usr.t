! mod_usr.t — a clumpy planar wind in MPI-AMRVAC (3D, isothermal MHD):
! the x-minimum boundary is an inflow of speed v_w along +x whose density
! is tbrf's frozen log-normal field carried by the wind (doc/streaming.md,
! "Inflow boundaries"), filled in usr_special_bc one boundary block at a
! time through tbrf_blocks (examples/amrvac/common).
!
! AMRVAC's boundary region ixO^L at iB = 1 is the nghostcells planes
! left of the domain across the block's whole ixG range in y and z, so
! the edge and corner ghost cells are filled too: the sampler's tube
! covers them. The field is not periodic across the flow, so where the
! box is periodic in y and z the wind has a seam at its faces.
! The sampler is made at the first fill (AMRVAC fills the ghost cells
! while it sets the initial state, before usr_before_main_loop), on every
! rank with the same arguments, for the run's time_max.
!
! usr_list (in amrvac.par):
!   use_tbrf     .false.: a uniform inflow of density rho_w (for the cost)
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
  logical :: use_tbrf = .true.
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
    namelist /usr_list/ use_tbrf, v_w, rho_w, sigma, k_min, k_max, seed, b0, stat_every
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
  ! sweep back along the wind until time_max.
  subroutine make_wind()
    type(tbrf_model) :: model
    double precision :: dx(3), glo(3), ghi(3), lo(3), hi(3), ly
    integer :: st
    dx = [(xprobmax1 - xprobmin1) / domain_nx1, (xprobmax2 - xprobmin2) / domain_nx2, &
          (xprobmax3 - xprobmin3) / domain_nx3]
    ly = xprobmax2 - xprobmin2
    glo = [xprobmin1 - (nghostcells - 0.5d0) * dx(1), xprobmin2 - (nghostcells - 0.5d0) * dx(2), &
           xprobmin3 - (nghostcells - 0.5d0) * dx(3)]
    ghi = [xprobmin1 - 0.5d0 * dx(1), xprobmax2 + (nghostcells - 0.5d0) * dx(2), &
           xprobmax3 + (nghostcells - 0.5d0) * dx(3)]
    call tbrf_model_powerlaw(model, -11.d0 / 3, 2 * dpi * k_min / ly, 2 * dpi * k_max / ly)
    call tbrf_model_set_variance(model, 1.d0)
    call tbrf_inflow_tube(3, glo, ghi, [v_w, 0.d0, 0.d0], time_max, lo, hi, stat=st)
    if (st == TBRF_OK) call tbrf_inflow_create(wind, model, 3, lo, hi, dx(1), seed, 0, [v_w, 0.d0, 0.d0], &
                                                stat=st)
    if (st == TBRF_OK) call tbrf_inflow_set_density(wind, TBRF_DENSITY_LOGNORMAL, rho_w, sigma, stat=st)
    if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_inflow_message(wind))
    call tbrf_model_destroy(model)
    wind_made = .true.
  end subroutine make_wind

  subroutine inflow_bc(qt,ixI^L,ixO^L,iB,w,x)
    integer, intent(in) :: ixI^L, ixO^L, iB
    double precision, intent(in) :: qt, x(ixI^S,1:ndim)
    double precision, intent(inout) :: w(ixI^S,1:nw)
    double precision :: rho(ixO^S), h(3)
    integer :: st, j, k
    double precision :: c0, c1
    call cpu_time(c0)
    if (iB /= 1) call mpistop('inflow_bc: only the x-minimum boundary is special')
    if (use_tbrf) then
      if (.not. wind_made) call make_wind()
      ! the spacing from the block's own centres (dxlevel is not set for
      ! every call of the boundary fill)
      h = [x(ixImin1+1,ixImin2,ixImin3,1) - x(ixImin1,ixImin2,ixImin3,1), &
           x(ixImin1,ixImin2+1,ixImin3,2) - x(ixImin1,ixImin2,ixImin3,2), &
           x(ixImin1,ixImin2,ixImin3+1,3) - x(ixImin1,ixImin2,ixImin3,3)]
      call tbrf_block_inflow(wind, qt, [ixImin1, ixImin2, ixImin3], [ixImax1, ixImax2, ixImax3], &
                             [ixOmin1, ixOmin2, ixOmin3], [ixOmax1, ixOmax2, ixOmax3], x, h, rho, stat=st)
      if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_inflow_message(wind))
      do k = ixOmin3, ixOmax3
        do j = ixOmin2, ixOmax2
          if (x(ixOmin1,j,k,2) > xprobmin2 .and. x(ixOmin1,j,k,2) < xprobmax2 .and. &
              x(ixOmin1,j,k,3) > xprobmin3 .and. x(ixOmin1,j,k,3) < xprobmax3) then
            acc = acc + [dble(ixOmax1 - ixOmin1 + 1), sum(rho(:,j,k)), sum(log(rho(:,j,k))), &
                         sum(log(rho(:,j,k))**2)]
          end if
        end do
      end do
    else
      rho = rho_w
    end if
    w(ixO^S,rho_) = rho
    w(ixO^S,mom(1)) = rho * v_w
    w(ixO^S,mom(2)) = 0.d0
    w(ixO^S,mom(3)) = 0.d0
    w(ixO^S,mag(1)) = b0
    w(ixO^S,mag(2)) = 0.d0
    w(ixO^S,mag(3)) = 0.d0
    call cpu_time(c1)
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
