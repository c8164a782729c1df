! example_periodic.f90 — a solenoidal forcing field for a periodic MHD box,
! evaluated at moving cells (doc/fortran.md, "A periodic vector example").
!
! The field is defined by its box: origin, period and a 32^3 mode lattice.
! On the box lattice itself it is one FFT (the FFT method); anywhere else
! (the cells below) a type-2 non-uniform FFT with the requested accuracy,
! whose oversampled grid the plan keeps: moving the cells costs only the
! interpolation. Values are interleaved per point, force(1:3, i).
program example_periodic
    use tbrf
    implicit none
    integer, parameter :: nmode = 32, ncell = 4000, nstep = 3
    real(c_double), parameter :: box = 2.0_c_double, dt = 0.05_c_double
    type(tbrf_model) :: model
    type(tbrf_plan) :: plan
    type(tbrf_opts) :: opts
    real(c_double), allocatable, target :: xyz(:, :)   ! target: set_points keeps its address
    real(c_double), allocatable :: force(:, :), lattice(:), vel(:, :)
    real(c_double) :: h, rms, div, grad
    integer :: step, i, j, k, c, stat

    ! Gaussian covariance of length 0.1 box lengths, each component of
    ! variance 1 (the model's sigma^2), solenoidal.
    call tbrf_model_gaussian(model, 0.2_c_double)
    call tbrf_default_opts(opts)
    opts%vector = TBRF_VECTOR_SOLENOIDAL
    opts%accuracy = 1e-9_c_double                    ! the default for double is 1e-12
    call tbrf_make_periodic_plan(plan, model, 3, origin=[0d0, 0d0, 0d0], &
                                 length=[box, box, box], n=[nmode, nmode, nmode], seed=7, opts=opts)
    call tbrf_model_destroy(model)                   ! the plan keeps its own copy

    ! Cells anywhere, even outside the box: positions wrap into it.
    allocate(xyz(3, ncell), vel(3, ncell), force(3, ncell))
    call random_number(xyz)
    xyz = 1.5_c_double * box * xyz - 0.25_c_double * box
    call random_number(vel)
    vel = vel - 0.5_c_double
    call tbrf_set_points(plan, xyz)
    write(*, '(a, a)') 'method at the cells: ', &
        merge('nufft', 'other', tbrf_plan_method(plan) == TBRF_METHOD_NUFFT)
    do step = 1, nstep
        ! the same realization every step: the forcing pattern is frozen
        ! while the cells move through it (realization = step would renew it)
        call tbrf_execute(plan, 0, force, stat=stat)
        if (stat /= TBRF_OK) then
            write(*, '(a, a)') 'execute failed: ', tbrf_plan_message(plan)
            stop 1
        end if
        rms = sqrt(sum(force**2) / size(force))
        write(*, '(a, i0, a, f7.4)') 'step ', step, ': rms force component ', rms
        xyz = xyz + dt * vel                        ! same array, new positions
    end do

    ! On the box lattice the same field is one FFT; its spectral divergence
    ! vanishes to rounding. Here a central difference shows it is small
    ! against the gradient (it falls as h^2).
    h = box / nmode
    call tbrf_set_grid(plan, origin=[0d0, 0d0, 0d0], spacing=[h, h, h], n=[nmode, nmode, nmode])
    allocate(lattice(3 * nmode**3))
    call tbrf_execute(plan, 0, lattice)
    div = 0
    grad = 0
    do k = 0, nmode - 1
        do j = 0, nmode - 1
            do i = 0, nmode - 1
                c = 1 + i + nmode * (j + nmode * k)
                div = div + (comp(1, i + 1, j, k) - comp(1, i - 1, j, k) + &
                             comp(2, i, j + 1, k) - comp(2, i, j - 1, k) + &
                             comp(3, i, j, k + 1) - comp(3, i, j, k - 1))**2
                grad = grad + (comp(1, i + 1, j, k) - comp(1, i - 1, j, k))**2
            end do
        end do
    end do
    write(*, '(a, f6.3)') 'lattice: |central-difference divergence| / |d v_x / d x| = ', &
        sqrt(div / grad)
    if (.not. (sqrt(div / grad) < 0.5_c_double)) stop 1
    call tbrf_destroy(plan)
    deallocate(xyz, vel, force, lattice)            ! main-program arrays are never freed otherwise
contains
    ! component m of the lattice values at cell (i, j, k), periodic
    pure real(c_double) function comp(m, i, j, k)
        integer, intent(in) :: m, i, j, k
        comp = lattice(m + 3 * (modulo(i, nmode) + nmode * (modulo(j, nmode) + nmode * modulo(k, nmode))))
    end function comp
end program example_periodic
