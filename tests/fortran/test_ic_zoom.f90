! test_ic_zoom.f90 — the zoom wrappers reach C with their arguments in
! place: an 8^3 parent refined twice around the site of one particle ID
! (padded by a cell: 27 cells) has 27 * 8 fine and 512 - 27 coarse
! particles, the total mass of the parent's 512, the cells' levels where
! they should be, fine rows on the 16^3 lattice inside those cells and
! positions in the box; tbrf_ic_zoom_bytes agrees with make; a bad
! refinement is refused with a status and a message.
program test_ic_zoom
    use tbrf
    use test_support
    implicit none
    type(tbrf_ic_zoom) :: zoom
    type(tbrf_ic_cosmo_params) :: p, held
    type(tbrf_ic_zoom_params) :: z, zheld
    type(tbrf_ic_zoom_info) :: info
    type(tbrf_ic_zoom_part) :: part
    integer(c_int64_t), allocatable :: ids(:)
    real(c_double), pointer :: pos(:, :)
    integer(c_int64_t), pointer :: row(:)
    real(c_double) :: bytes, total
    integer(c_int64_t) :: k, i, j, l
    integer :: st
    logical :: inside
    integer :: lin, lout
    character(len=:), allocatable :: msg
    call tbrf_ic_default_cosmo(p)
    p%particles = 8
    p%lpt = 1
    call tbrf_ic_default_zoom(z)
    z%region = TBRF_IC_ZOOM_IDS
    z%refinement = 2
    z%pad = 1
    allocate(ids(1))
    ids(1) = 1 + 3 + 8 * (3 + 8 * 3)      ! the particle at site (3, 3, 3)
    call tbrf_ic_zoom_bytes(p, z, bytes, ids, stat=st)
    call check(st == TBRF_OK .and. bytes > 0, "tbrf_ic_zoom_bytes")
    call tbrf_ic_zoom_make(zoom, p, z, ids, stat=st)
    call check(st == TBRF_OK, "tbrf_ic_zoom_make: " // tbrf_ic_zoom_message(zoom))
    call tbrf_ic_zoom_get_info(zoom, info, stat=st)
    call check(st == TBRF_OK .and. info%region_cells == 27 .and. info%fine == 216 .and. &
               info%coarse == 485 .and. info%gas == 0, "counts")
    total = info%fine * info%mass_fine + info%coarse * info%mass_coarse
    call check(abs(total / (512 * info%mass_coarse) - 1) < 1e-12_c_double, "total mass")
    lin = tbrf_ic_zoom_level(zoom, 2_c_int64_t, 4_c_int64_t, 3_c_int64_t)
    lout = tbrf_ic_zoom_level(zoom, 1_c_int64_t, 3_c_int64_t, 3_c_int64_t)
    call check(lin == 1 .and. lout == 0, "refined cells")
    call tbrf_ic_zoom_get_params(zoom, held, zheld, stat=st)
    call check(st == TBRF_OK .and. held%particles == 8 .and. zheld%refinement == 2 .and. &
               zheld%pad == 1 .and. zheld%n_ids == 1, "get_params")
    call tbrf_ic_zoom_particles(zoom, 1, part, stat=st)
    call check(st == TBRF_OK .and. part%n == 216, "fine particles")
    call c_f_pointer(part%pos, pos, [3_c_int64_t, part%n])
    call c_f_pointer(part%row, row, [part%n])
    inside = .true.
    do k = 1, part%n
        ! the fine site (i, j, l) of a 16^3 lattice in parent cell (i + 1) / 2
        i = mod(row(k), 16_c_int64_t)
        j = mod(row(k) / 16, 16_c_int64_t)
        l = row(k) / 256
        inside = inside .and. abs(mod((i + 1) / 2, 8_c_int64_t) - 3) <= 1 .and. &
                 abs(mod((j + 1) / 2, 8_c_int64_t) - 3) <= 1 .and. &
                 abs(mod((l + 1) / 2, 8_c_int64_t) - 3) <= 1
    end do
    call check(inside .and. all(pos >= 0) .and. all(pos < p%box), "fine rows and positions")
    call tbrf_ic_zoom_particles(zoom, 3, part, stat=st)
    call check(st == TBRF_ERR_INVALID, "type 3 refused")
    z%refinement = 3
    call tbrf_ic_zoom_make(zoom, p, z, ids, stat=st)
    msg = tbrf_ic_zoom_message(zoom)
    call check(st == TBRF_ERR_INVALID .and. index(msg, "refinement") > 0, "refinement 3: " // msg)
    call tbrf_ic_zoom_destroy(zoom)
    deallocate(ids, msg)
    call finish("test_ic_zoom")
end program test_ic_zoom
