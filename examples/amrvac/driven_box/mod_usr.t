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
! With target_mach > 0 the force's amplitude is controlled towards that
! rms Mach number (doc/driving.md, "Amplitude control"): at the first
! iteration of each driving update the velocity dispersion per component
! (all ranks) goes to tbrf_driver_amplitude_adjust with the gains, and the
! driver is made again with amplitude_factor = the new gains and rms =
! f_rms (sum of gains^2 / 3)^(1/2), which draws the same OU values scaled.
! The controller's guards leave the gains alone before t = 0.1 t_corr
! and while a component measures 0. The gains are not written into
! AMRVAC's .dat, so a restart of a controlled run starts from gains 1.
!
! usr_list (in amrvac.par):
!   use_tbrf     .false. switches the forcing off (for the cost of a step)
!   use_points   .true. evaluates each block's cells as points (the slow path)
!   f_rms, t_corr the driver's rms acceleration and OU correlation time
!   k_min, k_max the band of driven wavenumbers, in units of 2 pi / L
!   seed         the driver's seed
!   b0           the initial uniform field along x
!   mach_every   iterations between lines of mach.dat (time, rms Mach, f rms)
!   target_mach  > 0: control the amplitude towards this rms Mach number;
!                the gains go to gains.dat at every update (time, gains)
module mod_usr
  use mod_mhd
  use tbrf
  use tbrf_blocks
  implicit none
  logical :: use_tbrf = .true., use_points = .false.
  double precision :: f_rms = 2.d0, t_corr = 0.5d0, k_min = 1.d0, k_max = 3.d0, b0 = 0.5d0
  double precision :: target_mach = 0.d0
  integer :: seed = 2026, mach_every = 5
  type(tbrf_driver), save :: drv
  logical, save :: drv_made = .false.
  ! amplitude control: the gains per component, the driving interval and
  ! the last update the gains were set at
  double precision, save :: gain(3) = 1.d0, dt_update = 0.d0
  integer, save :: gain_update = -1
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
    namelist /usr_list/ use_tbrf, use_points, f_rms, t_corr, k_min, k_max, seed, b0, mach_every, &
                        target_mach
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
    type(tbrf_driver_info) :: info
    integer :: st
    if (drv_made) return
    call make_driver_gains()
    call tbrf_driver_get_info(drv, info, stat=st)
    dt_update = info%dt_update
    drv_made = .true.
    call solenoidal_check()
  end subroutine make_driver

  ! (Re)makes drv with the current gains: amplitude_factor = gain and the
  ! rms that the gains give an isotropic force of rms f_rms at unit gains.
  subroutine make_driver_gains()
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm
    double precision :: l(3)
    integer :: st
    l = [xprobmax1 - xprobmin1, xprobmax2 - xprobmin2, xprobmax3 - xprobmin3]
    call tbrf_model_band(band, 2 * dpi * k_min / l(1), 2 * dpi * k_max / l(1))
    call tbrf_driver_default_params(prm)
    prm%origin = [xprobmin1, xprobmin2, xprobmin3]
    prm%length = l
    prm%rms = f_rms * sqrt(sum(gain**2) / 3)
    prm%amplitude_factor = gain
    prm%tcorr = t_corr
    prm%threads = 1   ! the ranks (and AMRVAC's OpenMP loop) share the cores
    call tbrf_driver_destroy(drv)
    call tbrf_driver_make(drv, band, seed, prm, stat=st)
    if (st /= TBRF_OK) call mpistop('tbrf: ' // tbrf_driver_message(drv))
    call tbrf_model_destroy(band)
  end subroutine make_driver_gains

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
    ! AMRVAC's OpenMP build calls this from the threads of its block loop
    !$omp atomic
    cpu_tbrf = cpu_tbrf + (c1 - c0)
  end subroutine drive_source

  ! Every mach_every iterations: iteration, time, rms Mach number
  ! (mass-unweighted, <|v|^2>^(1/2) / c_s), the force's box rms, and rank
  ! 0's CPU seconds since the first call inside the forcing and in all, to
  ! mach.dat (rank 0).
  !
  ! With target_mach > 0, first the amplitude control at a new update.
  subroutine mach_log(iit,qt)
    integer, intent(in) :: iit
    double precision, intent(in) :: qt
    double precision :: tot(7), frms, now
    integer :: st
    call cpu_time(now)
    if (cpu_start < 0) then
      cpu_start = now
      cpu_tbrf = 0.d0
    end if
    if (target_mach > 0 .and. drv_made) call control(qt)
    if (mod(iit, mach_every) /= 0) return
    call velocity_moments(tot)
    frms = 0.d0
    if (drv_made) call tbrf_driver_rms(drv, qt, frms, stat=st)
    if (mype == 0) then
      open(unit=31, file='mach.dat', position='append')
      write(31, '(i8, 3es16.8, 2f12.3)') iit, qt, sqrt(sum(tot(4:6)) / tot(7)) / sqrt(mhd_adiab), frms, &
        cpu_tbrf, now - cpu_start
      close(31)
    end if
  end subroutine mach_log

  ! Over the cells of every rank: sum of v_d (1:3), of v_d^2 (4:6), and
  ! the cell count (7).
  subroutine velocity_moments(tot)
    double precision, intent(out) :: tot(7)
    double precision :: loc(7)
    integer :: iigrid, igrid, idir
    loc = 0.d0
    do iigrid = 1, igridstail; igrid = igrids(iigrid)
      do idir = 1, ndir
        associate(v => ps(igrid)%w(ixM^T,mom(idir)) / ps(igrid)%w(ixM^T,rho_))
          loc(idir) = loc(idir) + sum(v)
          loc(3 + idir) = loc(3 + idir) + sum(v**2)
        end associate
      end do
      loc(7) = loc(7) + {block_nx^D*}
    end do
    call MPI_ALLREDUCE(loc, tot, 7, MPI_DOUBLE_PRECISION, MPI_SUM, icomm, ierrmpi)
  end subroutine velocity_moments

  ! At the first iteration in a new driving update: the gains for the
  ! update from the measured dispersion per component (TurbGen's
  ! ampl_auto_adjust, target the total dispersion target_mach c_s), the
  ! driver made again with them, and a line of gains.dat.
  subroutine control(qt)
    double precision, intent(in) :: qt
    double precision :: tot(7), mean(3), disp(3), g(3)
    character(len=256) :: msg
    integer :: j, st
    j = int(qt / dt_update)
    if (j == gain_update) return
    gain_update = j
    call velocity_moments(tot)
    mean = tot(1:3) / tot(7)
    disp = sqrt(max(0.d0, tot(4:6) / tot(7) - mean**2))
    call tbrf_driver_amplitude_adjust(gain, disp, target_mach * sqrt(mhd_adiab), qt, dt_update, t_corr, &
                                      g, msg, stat=st)
    if (st /= TBRF_OK) call mpistop('tbrf: ' // trim(msg))
    if (any(g /= gain)) then
      gain = g
      call make_driver_gains()
    end if
    if (mype == 0) then
      open(unit=32, file='gains.dat', position='append')
      write(32, '(i8, es16.8, 3es16.8, 3es16.8)') j, qt, gain, disp / sqrt(mhd_adiab)
      close(32)
    end if
  end subroutine control

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
