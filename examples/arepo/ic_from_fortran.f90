! ic_from_fortran.f90 — the cosmological initial condition of run.sh
! (cosmo_ics.hdf5: AREPO's cosmo_box_gravity_only_3d setting) from a
! Fortran program, with the installed libraries: the physics from the
! Fortran modules over libtbrf (module tbrf, doc/ic.md), the file from
! libtbrf_writer's tbrf_arepo_write_cosmo (tbrf_arepo.h), declared below
! with its bind(C) types. The file is the one `tbrf arepo cosmo` writes,
! byte for byte.
!
!   gfortran ic_from_fortran.f90 $(pkg-config --cflags --libs tbrf-fortran tbrf-writer) \
!            -o ic_from_fortran
!   ./ic_from_fortran        (32^3 particles; ./ic_from_fortran G for G^3)
module arepo_writer
    use, intrinsic :: iso_c_binding
    implicit none

    !> tbrf_arepo.h's tbrf_arepo_cosmo_file.
    type, bind(C) :: tbrf_arepo_cosmo_file
        integer(c_int32_t) :: num_files
        integer(c_int32_t) :: double_precision
        integer(c_int32_t) :: long_ids
        integer(c_int32_t) :: reserved
        type(c_ptr) :: command
        type(c_ptr) :: power_name
        type(c_ptr) :: glass_name
    end type tbrf_arepo_cosmo_file

    interface
        subroutine tbrf_arepo_default_cosmo_file(file) bind(C, name="tbrf_arepo_default_cosmo_file")
            import
            type(tbrf_arepo_cosmo_file) :: file
        end subroutine tbrf_arepo_default_cosmo_file

        function tbrf_arepo_write_cosmo(base, ic, file, err, errlen) bind(C, name="tbrf_arepo_write_cosmo")
            import
            integer(c_int) :: tbrf_arepo_write_cosmo
            character(kind=c_char), intent(in) :: base(*)
            type(c_ptr), value :: ic
            type(tbrf_arepo_cosmo_file), intent(in) :: file
            character(kind=c_char) :: err(*)
            integer(c_size_t), value :: errlen
        end function tbrf_arepo_write_cosmo
    end interface
end module arepo_writer

program ic_from_fortran
    use tbrf
    use arepo_writer
    implicit none
    type(tbrf_ic_cosmo_params) :: p
    type(tbrf_ic_cosmo_info) :: info
    type(tbrf_ic_cosmo) :: ic
    type(tbrf_arepo_cosmo_file) :: file
    character(len=32) :: arg
    character(kind=c_char, len=512), target :: command
    character(kind=c_char) :: err(1024)
    integer :: st, n

    call tbrf_ic_default_cosmo(p)
    ! run.sh's cosmology (the defaults, spelled out): 50 Mpc/h in kpc/h,
    ! z = 127, Planck 2015, Eisenstein & Hu P(k), seed 1
    p%box = 50000.0_c_double
    p%particles = 32
    if (command_argument_count() > 0) then
        call get_command_argument(1, arg)
        read(arg, *) p%particles
    end if
    p%redshift = 127.0_c_double
    p%omega_m = 0.3089_c_double
    p%omega_lambda = 0.6911_c_double
    p%omega_b = 0.0486_c_double
    p%hubble = 0.6774_c_double
    p%sigma8 = 0.831_c_double
    p%seed = 1
    p%lpt = 1 ! Zel'dovich, as N-GenIC's ICs of AREPO's example
    call tbrf_ic_cosmo_make(ic, p, stat=st)
    if (st /= TBRF_OK) then
        write(*, '(a)') 'ic_from_fortran: ' // tbrf_ic_cosmo_message(ic)
        error stop 1
    end if
    call tbrf_ic_cosmo_get_info(ic, info)
    write(*, '(a, i0, a, es12.6, a, es12.6)') 'ic_from_fortran: ', info%particles, &
        ' particles, D(z) = ', info%growth, ', velocity factor ', info%velocity_factor

    ! the command line that writes the same file (tbrf arepo regen reruns it)
    write(command, '(a, i0, a)') 'tbrf arepo cosmo --out cosmo_ics --box 50000 --particles ', &
        p%particles, ' --redshift 127 --omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486' // &
        ' --hubble 0.6774 --sigma8 0.831 --seed 1 --lpt 1'
    command = trim(command) // c_null_char
    call tbrf_arepo_default_cosmo_file(file)
    file%command = c_loc(command)
    err(1) = c_null_char
    if (tbrf_arepo_write_cosmo('cosmo_ics' // c_null_char, ic%ptr, file, err, &
                               size(err, kind=c_size_t)) /= 0) then
        n = 1
        do while (err(n) /= c_null_char .and. n < size(err))
            n = n + 1
        end do
        write(*, '(a, 1024a)') 'ic_from_fortran: ', err(1:n - 1)
        call tbrf_ic_cosmo_destroy(ic)
        error stop 1
    end if
    write(*, '(a)') 'ic_from_fortran: wrote cosmo_ics.hdf5'
    call tbrf_ic_cosmo_destroy(ic)
end program ic_from_fortran
