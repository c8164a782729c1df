! tbrf_blocks.f90 — the block loops of a block-structured code (MPI-AMRVAC
! style: cell centres x(ixI^S, 1:ndim) and variables w(ixI^S, 1:nw), the
! components last, ghost cells around an interior ixO^S) onto tbrf calls.
! Plain Fortran 2008, no AMRVAC module: the examples' mod_usr.t call it,
! and test_blocks.f90 beside it (ctest fortran_amrvac_blocks) checks it on blocks of its own.
!
! A block is given by the bounds of its arrays (lo, hi: ixI^L) and of its
! interior (olo, ohi: ixO^L), per axis. The force is filled on the interior
! only, one tbrf_driver_grid call per block (the fast path: the driver sums
! its modes axis by axis), into a contiguous component-last array the C
! library writes in place. Cell (i, j, k) of the interior is at
! origin + spacing * (i - olo(1), ...), origin = x(olo, :): a code whose
! x is origin + spacing * index in the same arithmetic (AMRVAC's uniform
! blocks with a power-of-two cell size) gets the force of the one-call
! grid and of the points, bit for bit; otherwise equal to rounding.
module tbrf_blocks
    use tbrf
    implicit none
    private
    public :: tbrf_block_force, tbrf_block_force_points, tbrf_block_kick, tbrf_block_inflow

    !> tbrf_block_force(drv, t, lo, hi, olo, ohi, x, spacing, f[, stat]):
    !> f(olo:ohi per axis, 1:nc) = the force at the interior's cells, by
    !> one tbrf_driver_grid_component_last. 2D: x(:, :, 1:2), f(:, :, 1:nc).
    interface tbrf_block_force
        module procedure block_force_3d, block_force_2d
    end interface tbrf_block_force

    !> The same cells through tbrf_driver_points_component_last (for cells
    !> that move or blocks that are not uniform; the slow path otherwise).
    interface tbrf_block_force_points
        module procedure block_points_3d
    end interface tbrf_block_force_points

    !> tbrf_block_kick(qdt, lo, hi, olo, ohi, f, rho, w, imom[, ie]):
    !> adds qdt rho f to the momenta w(:, imom(c)) of the interior (and
    !> qdt f . m to the energy w(:, ie) when ie > 0).
    interface tbrf_block_kick
        module procedure block_kick_3d
    end interface tbrf_block_kick

    !> tbrf_block_inflow(wind, t, lo, hi, olo, ohi, x, spacing, rho[, stat]):
    !> rho(olo:ohi) = the inflow sampler's density at the boundary region's
    !> cells (ghost cells, corners included), one tbrf_inflow_fill_grid.
    interface tbrf_block_inflow
        module procedure block_inflow_2d, block_inflow_3d
    end interface tbrf_block_inflow

contains

    subroutine block_force_3d(drv, t, lo, hi, olo, ohi, x, spacing, f, stat)
        type(tbrf_driver), intent(inout) :: drv
        real(c_double), intent(in) :: t
        integer, intent(in) :: lo(3), hi(3), olo(3), ohi(3)
        real(c_double), intent(in) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3), spacing(3)
        real(c_double), intent(out) :: f(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), drv%nc)
        integer, intent(out), optional :: stat
        call tbrf_driver_grid_component_last(drv, t, x(olo(1), olo(2), olo(3), :), spacing, f, stat)
    end subroutine block_force_3d

    subroutine block_force_2d(drv, t, lo, hi, olo, ohi, x, spacing, f, stat)
        type(tbrf_driver), intent(inout) :: drv
        real(c_double), intent(in) :: t
        integer, intent(in) :: lo(2), hi(2), olo(2), ohi(2)
        real(c_double), intent(in) :: x(lo(1):hi(1), lo(2):hi(2), 2), spacing(2)
        real(c_double), intent(out) :: f(olo(1):ohi(1), olo(2):ohi(2), drv%nc)
        integer, intent(out), optional :: stat
        call tbrf_driver_grid_component_last(drv, t, x(olo(1), olo(2), :), spacing, f, stat)
    end subroutine block_force_2d

    subroutine block_points_3d(drv, t, lo, hi, olo, ohi, x, f, stat)
        type(tbrf_driver), intent(inout) :: drv
        real(c_double), intent(in) :: t
        integer, intent(in) :: lo(3), hi(3), olo(3), ohi(3)
        real(c_double), intent(in) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3)
        real(c_double), intent(out) :: f(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), drv%nc)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: xi(:, :, :, :)
        ! the interior's positions, contiguous: the points call reads x(n, 3)
        allocate(xi(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 3))
        xi = x(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), :)
        call points_call(drv, t, size(xi, kind=c_int64_t) / 3, xi, f, stat)
    end subroutine block_points_3d

    !> The interior's cells as n points: xi and f are the block's arrays
    !> seen as (n, 3) and (n, nc) by sequence association (no copy).
    subroutine points_call(drv, t, n, xi, f, stat)
        type(tbrf_driver), intent(inout) :: drv
        real(c_double), intent(in) :: t
        integer(c_int64_t), intent(in) :: n
        real(c_double), intent(in) :: xi(n, 3)
        real(c_double), intent(out) :: f(n, drv%nc)
        integer, intent(out), optional :: stat
        call tbrf_driver_points_component_last(drv, t, xi, f, stat)
    end subroutine points_call

    subroutine block_kick_3d(qdt, lo, hi, olo, ohi, f, rho, w, imom, ie)
        real(c_double), intent(in) :: qdt
        integer, intent(in) :: lo(3), hi(3), olo(3), ohi(3)
        real(c_double), intent(in) :: f(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 3)
        real(c_double), intent(in) :: rho(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3))
        real(c_double), intent(inout) :: w(lo(1):, lo(2):, lo(3):, :)
        integer, intent(in) :: imom(3)
        integer, intent(in), optional :: ie
        integer :: i, j, k, c
        if (present(ie)) then
            if (ie > 0) then
                ! the work of the force on the momentum before the kick
                do k = olo(3), ohi(3)
                    do j = olo(2), ohi(2)
                        do i = olo(1), ohi(1)
                            w(i, j, k, ie) = w(i, j, k, ie) + qdt * (f(i, j, k, 1) * w(i, j, k, imom(1)) + &
                                f(i, j, k, 2) * w(i, j, k, imom(2)) + f(i, j, k, 3) * w(i, j, k, imom(3)))
                        end do
                    end do
                end do
            end if
        end if
        do c = 1, 3
            do k = olo(3), ohi(3)
                do j = olo(2), ohi(2)
                    do i = olo(1), ohi(1)
                        w(i, j, k, imom(c)) = w(i, j, k, imom(c)) + qdt * rho(i, j, k) * f(i, j, k, c)
                    end do
                end do
            end do
        end do
    end subroutine block_kick_3d

    subroutine block_inflow_2d(wind, t, lo, hi, olo, ohi, x, spacing, rho, stat)
        type(tbrf_inflow), intent(inout) :: wind
        real(c_double), intent(in) :: t
        integer, intent(in) :: lo(2), hi(2), olo(2), ohi(2)
        real(c_double), intent(in) :: x(lo(1):hi(1), lo(2):hi(2), 2), spacing(2)
        real(c_double), intent(out) :: rho(olo(1):ohi(1), olo(2):ohi(2))
        integer, intent(out), optional :: stat
        call tbrf_inflow_fill_grid(wind, t, x(olo(1), olo(2), :), spacing, rho, stat)
    end subroutine block_inflow_2d

    subroutine block_inflow_3d(wind, t, lo, hi, olo, ohi, x, spacing, rho, stat)
        type(tbrf_inflow), intent(inout) :: wind
        real(c_double), intent(in) :: t
        integer, intent(in) :: lo(3), hi(3), olo(3), ohi(3)
        real(c_double), intent(in) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3), spacing(3)
        real(c_double), intent(out) :: rho(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3))
        integer, intent(out), optional :: stat
        call tbrf_inflow_fill_grid(wind, t, x(olo(1), olo(2), olo(3), :), spacing, rho, stat)
    end subroutine block_inflow_3d
end module tbrf_blocks
