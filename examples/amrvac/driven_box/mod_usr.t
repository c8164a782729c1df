! mod_usr.t — a driven isothermal MHD box in MPI-AMRVAC, forced by tbrf's
! OU solenoidal driver (doc/driving.md) in usr_source: one
! tbrf_driver_grid per block through tbrf_blocks (examples/amrvac/common).
!
! Every rank makes its own driver with the same arguments (no
! communicator: the force is a pure function of time and position), so
! any number of ranks gives the same bytes. Nothing of the driver goes in
! AMRVAC's .dat: at a restart the driver draws the force at the restart
! time by random access.
!
! usr_list (in amrvac.par):
!   use_tbrf     .false. switches the forcing off (for the cost of a step)
!   use_points   .true. evaluates each block's cells as points (the slow path)
!   f_rms, t_corr the driver's rms acceleration and OU correlation time
!   k_min, k_max the band of driven wavenumbers, in units of 2 pi / L
!   seed         the driver's seed
!   b0           the initial uniform field along x
!   mach_every   iterations between lines of mach.dat (time, rms Mach, f rms)
module mod_usr
  use mod_mhd
  use tbrf
  use tbrf_blocks
  implicit none
  logical :: use_tbrf = .true., use_points = .false.
  double precision :: f_rms = 2.d0, t_corr = 0.5d0, k_min = 1.d0, k_max = 3.d0, b0 = 0.5d0
  integer :: seed = 2026, mach_every = 5
  type(tbrf_driver), save :: drv
  logical, save :: drv_made = .false.
  ! CPU seconds of this rank inside tbrf's force and the kick, and at the start
  double precision, save :: cpu_tbrf = 0.d0, cpu_start = -1.d0

contains

  subroutine usr_init()
    call usr_params_read(par_files)
    usr_init_one_grid => initonegrid_usr
    usr_source => drive_source
    usr_before_main_loop => make_driver
    usr_process_global => mach_log
    call set_coordinate_system('Cartesian')
    call mhd_activate()
  end subroutine usr_init

  subroutine usr_params_read(files)
    character(len=*), intent(in) :: files(:)
    integer :: n
    namelist /usr_list/ use_tbrf, use_points, f_rms, t_corr, k_min, k_max, seed, b0, mach_every
    do n = 1, size(files)
      open(unitpar, file=trim(files(n)), status="old")
      read(unitpar, usr_list, end=111)
111   close(unitpar)
    end do
  end subroutine usr_params_read

  ! Gas at rest, density 1, sound speed 1 (mhd_adiab = 1, mhd_gamma = 1), B = b0 x.
  subroutine initonegrid_usr(ixG^L,ix^L,w,x)
    integer, intent(in) :: ixG^L, ix^L
    double precision, intent(in) :: x(ixG^S,1:ndim)
    double precision, intent(inout) :: w(ixG^S,1:nw)
    w(ix^S,rho_) = 1.d0
    w(ix^S,mom(:)) = 0.d0
    w(ix^S,mag(:)) = 0.d0
    w(ix^S,mag(1)) = b0
  end subroutine initonegrid_usr

  ! The driver of the domain [xprobmin, xprobmax], made once on every rank
  ! after the parameters are read (and after a restart's load); then the
  ! force of the first blocks is checked solenoidal.
  subroutine make_driver()
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm
    double precision :: l(3)
    integer :: st
    if (drv_made) return
    l = [xprobmax1 - xprobmin1, xprobmax2 - xprobmin2, xprobmax3 - xprobmin3]
    call tbrf_model_band(band, 2 * dpi * k_min / l(1), 2 * dpi * k_max / l(1))
    call tbrf_driver_default_params(prm)
    prm%origin = [xprobmin1, xprobmin2, xprobmin3]
    prm%length = l
    prm%rms = f_rms
    prm%tcorr = t_corr
    prm%threads = 1   ! the ranks (and AMRVAC's OpenMP loop) share the cores
    call tbrf_driver_make(drv, band, seed, prm, stat=st)
    if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_driver_message(drv))
    call tbrf_model_destroy(band)
    drv_made = .true.
    call solenoidal_check()
  end subroutine make_driver

  ! w = w + qdt rho f on the block's ixO (rho of wCT, the state the
  ! step's sources are computed from, at its time qtC).
  subroutine drive_source(qdt,ixI^L,ixO^L,iw^LIM,qtC,wCT,qt,w,x)
    integer, intent(in) :: ixI^L, ixO^L, iw^LIM
    double precision, intent(in) :: qdt, qtC, qt
    double precision, intent(in) :: wCT(ixI^S,1:nw), x(ixI^S,1:ndim)
    double precision, intent(inout) :: w(ixI^S,1:nw)
    double precision :: f(ixO^S,1:ndim)
    integer :: st, lo(3), hi(3), olo(3), ohi(3)
    double precision :: c0, c1
    if (.not. use_tbrf) return
    call cpu_time(c0)
    lo = [ixImin1, ixImin2, ixImin3]
    hi = [ixImax1, ixImax2, ixImax3]
    olo = [ixOmin1, ixOmin2, ixOmin3]
    ohi = [ixOmax1, ixOmax2, ixOmax3]
    if (use_points) then
      call tbrf_block_force_points(drv, qtC, lo, hi, olo, ohi, x, f, stat=st)
    else
      call tbrf_block_force(drv, qtC, lo, hi, olo, ohi, x, dxlevel(1:ndim), f, stat=st)
    end if
    if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_driver_message(drv))
    call tbrf_block_kick(qdt, lo, hi, olo, ohi, f, wCT(ixI^S,rho_), w, mom(1:3))
    call cpu_time(c1)
    cpu_tbrf = cpu_tbrf + (c1 - c0)
  end subroutine drive_source

  ! Every mach_every iterations: iteration, time, rms Mach number
  ! (mass-unweighted, <|v|^2>^(1/2) / c_s), the force's box rms, and rank
  ! 0's CPU seconds since the first call inside the forcing and in all, to
  ! mach.dat (rank 0).
  subroutine mach_log(iit,qt)
    integer, intent(in) :: iit
    double precision, intent(in) :: qt
    double precision :: loc(2), tot(2), frms, now
    integer :: iigrid, igrid, idir, st
    call cpu_time(now)
    if (cpu_start < 0) then
      cpu_start = now
      cpu_tbrf = 0.d0
    end if
    if (mod(iit, mach_every) /= 0) return
    loc = 0.d0
    do iigrid = 1, igridstail; igrid = igrids(iigrid)
      do idir = 1, ndir
        loc(1) = loc(1) + sum((ps(igrid)%w(ixM^T,mom(idir)) / ps(igrid)%w(ixM^T,rho_))**2)
      end do
      loc(2) = loc(2) + {block_nx^D*}
    end do
    call MPI_ALLREDUCE(loc, tot, 2, MPI_DOUBLE_PRECISION, MPI_SUM, icomm, ierrmpi)
    frms = 0.d0
    if (drv_made) call tbrf_driver_rms(drv, qt, frms, stat=st)
    if (mype == 0) then
      open(unit=31, file='mach.dat', position='append')
      write(31, '(i8, 3es16.8, 2f12.3)') iit, qt, sqrt(tot(1) / tot(2)) / sqrt(mhd_adiab), frms, cpu_tbrf, &
        now - cpu_start
      close(31)
    end if
  end subroutine mach_log

  ! The force AMRVAC's blocks receive at t = 0, checked solenoidal: its
  ! discrete Fourier coefficient at each driven mode m (summed over the
  ! blocks of every rank) against m . F(m), and against the driver's own
  ! coefficient (each block placed where it belongs). Printed by rank 0.
  subroutine solenoidal_check()
    integer(c_int32_t), allocatable :: m(:, :)
    double precision, allocatable :: coef(:, :), part(:), whole(:)
    double precision :: f(ixM^T,1:ndim), xc(3), l(3), div, miss, fmax
    complex(kind(1.d0)) :: e, fh(3)
    integer :: iigrid, igrid, q, c, ix^D, nq, st
    double precision :: ncell
    call tbrf_driver_modes(drv, 0.d0, m, coef, stat=st)
    if (st /= TBRF_OK) return
    nq = size(m, 2)
    allocate(part(6 * nq), whole(6 * nq))
    part = 0.d0
    l = [xprobmax1 - xprobmin1, xprobmax2 - xprobmin2, xprobmax3 - xprobmin3]
    do iigrid = 1, igridstail; igrid = igrids(iigrid)
      ^D&dxlevel(^D)=rnode(rpdx^D_,igrid);
      call tbrf_block_force(drv, 0.d0, [ixGlo1, ixGlo2, ixGlo3], [ixGhi1, ixGhi2, ixGhi3], &
                            [ixMlo1, ixMlo2, ixMlo3], [ixMhi1, ixMhi2, ixMhi3], ps(igrid)%x, &
                            dxlevel(1:ndim), f, stat=st)
      do q = 1, nq
        fh = 0
        {do ix^DB = ixMlo^DB, ixMhi^DB\}
          xc = ps(igrid)%x(ix^D,1:3) - [xprobmin1, xprobmin2, xprobmin3]
          e = exp(cmplx(0.d0, -2 * dpi * sum(m(:, q) * xc / l), kind(1.d0)))
          fh = fh + f(ix^D,1:3) * e
        {end do\}
        part(6 * q - 5:6 * q) = part(6 * q - 5:6 * q) + [(real(fh(c)), aimag(fh(c)), c = 1, 3)]
      end do
    end do
    call MPI_ALLREDUCE(part, whole, 6 * nq, MPI_DOUBLE_PRECISION, MPI_SUM, icomm, ierrmpi)
    ncell = dble(domain_nx1) * domain_nx2 * domain_nx3
    whole = whole / ncell
    div = 0.d0
    miss = 0.d0
    fmax = maxval(abs(coef))
    do q = 1, nq
      fh = [(cmplx(whole(6 * q - 5 + 2 * (c - 1)), whole(6 * q - 4 + 2 * (c - 1)), kind(1.d0)), c = 1, 3)]
      div = max(div, abs(sum(m(:, q) * fh)) / (sqrt(dble(sum(m(:, q)**2))) * max(1.d-300, sqrt(sum(abs(fh)**2)))))
      miss = max(miss, maxval(abs(fh - [(cmplx(coef(2 * c - 1, q), coef(2 * c, q), kind(1.d0)), c = 1, 3)])))
    end do
    if (mype == 0) write(*, '(a, i0, a, es9.2, a, es9.2)') ' tbrf: ', nq, &
      ' modes; the blocks'' force at t = 0: max |m.F(m)|/(|m||F(m)|) = ', div, &
      ', max |F(m) - driver coefficient| / max |coefficient| = ', miss / fmax
  end subroutine solenoidal_check
end module mod_usr
