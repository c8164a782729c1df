/* drive.cl — the OpenCL kernel of a periodic driver's direct sum
 * (drive_body.h): one work-item per point, any work-group size (the
 * global size is rounded up and the tail masked). Only with double
 * precision (TBRF_FP64).
 * Arguments: m (3 ints per mode), coef (2 dim doubles per mode), nm, dim,
 * the box's origin and lengths, xyz (dim per point), count, out (dim per
 * point). */
#ifdef TBRF_FP64
__kernel void drive_points_d(__global const int *m, __global const double *coef, long nm, int dim,
                             double ox, double oy, double oz, double lx, double ly, double lz,
                             __global const double *xyz, long count, __global double *out)
{
    long g = get_global_id(0);
    if (g >= count)
        return;
    __global const double *x = xyz + dim * g;
    double t2 = dim == 3 ? drive_frac(x[2], oz, lz) : 0.0;
    drive_point(m, coef, nm, dim, drive_frac(x[0], ox, lx), drive_frac(x[1], oy, ly), t2, out + dim * g);
}
#endif
