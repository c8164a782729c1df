! consumer.f90 — a Fortran program outside the source tree that uses the
! installed modules and library. It makes the fields of two `tbrf generate`
! runs (see test_install_fortran.sh) and writes their raw values to
! DIR/a.bin (float64) and DIR/b.bin (float32), for comparison bit for bit
! with the command's /field datasets. The plan parameters are those the
! command uses for a grid: domain [origin, origin + spacing*(n-1)],
! resolution = the smallest spacing, seed 1 and realization 0 by default.
program consumer
    use tbrf
    implicit none
    character(len=4096) :: dir
    type(tbrf_model) :: m
    type(tbrf_plan) :: p
    type(tbrf_opts) :: o
    real(c_double) :: a(24, 20, 16)
    real(c_float) :: b(30, 20)
    real(c_double), parameter :: hb(2) = [0.5d0, 0.8d0], ob(2) = [1d0, -2d0]
    integer :: u

    call get_command_argument(1, dir)
    ! a: tbrf generate --model powerlaw --index -3 --kmin 0.05 --kmax 3 --grid 24x20x16
    call tbrf_model_powerlaw(m, -3d0, 0.05d0, 3d0)
    call tbrf_make_plan(p, m, 3, [0d0, 0d0, 0d0], [23d0, 19d0, 15d0], 1d0, 1)
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [24, 20, 16])
    call tbrf_execute(p, 0, a)
    open(newunit=u, file=trim(dir) // '/a.bin', access='stream', form='unformatted', status='replace')
    write(u) a
    close(u)
    ! b: tbrf generate --model matern --length 3 --nu 1.5 --variance 2 --grid 30x20
    !    --spacing 0.5,0.8 --origin 1,-2 --seed 7 --realization 3 --lines 256 --precision float
    call tbrf_model_matern(m, 3d0, 1.5d0)
    call tbrf_model_set_variance(m, 2d0)
    call tbrf_default_opts(o)
    o%lines = 256
    o%precision = TBRF_FLOAT
    call tbrf_make_plan(p, m, 2, ob, ob + hb * ([30, 20] - 1), minval(hb), 7, o)
    call tbrf_set_grid(p, ob, hb, [30, 20])
    call tbrf_execute(p, 3, b)
    open(newunit=u, file=trim(dir) // '/b.bin', access='stream', form='unformatted', status='replace')
    write(u) b
    close(u)
    call tbrf_destroy(p)
    call tbrf_model_destroy(m)
    write(*, '(a)') 'consumer: tbrf ' // tbrf_version() // ', wrote a.bin and b.bin'
end program consumer
