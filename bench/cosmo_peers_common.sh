# bench/cosmo_peers_common.sh — sourced by bench/cosmo_peers.sh and
# bench/cosmo_peers_time.sh: the one cosmology both compare tbrf and
# monofonIC at, the P(k) table they share and monofonIC's configuration,
# so that the two benchmarks run the same ICs. Needs $tbrf set.
#
# Cosmology: Omega_m 0.308, Omega_b 0.0484, h 0.678, sigma8 0.815, n_s 0.968
# (2LPTic's example), flat, no radiation (monofonIC: ZeroRadiation), no
# massive neutrinos.
OM=0.308 OB=0.0484 H=0.678 S8=0.815 NS=0.968

# pk.txt: `tbrf arepo pk`'s Eisenstein & Hu table at z = 0 of the cosmology.
peers_pk() {
    "$tbrf" arepo pk --out pk.txt --omega-m $OM --omega-b $OB --hubble $H --sigma8 $S8 \
        --ns $NS --kmin 1e-5 --kmax 200 --quiet
}

# peers_mono_conf G BOX Z ORDER SEED FILE: monofonIC's configuration on
# stdout: the AREPO HDF5 file FILE in double precision with 64-bit IDs,
# the P(k) of transfer_camb.txt, the corner modes removed (the particle
# Nyquist sphere), no fixing or pairing, $OMP_NUM_THREADS threads.
peers_mono_conf() {
    cat <<EOF
[setup]
GridRes = $1
BoxLength = $2
zstart = $3
LPTorder = $4
DoBaryons = no
DoFixing = no
DoInversion = no
DoRemoveCornerModes = yes
ParticleLoad = sc
[cosmology]
ParameterSet = none
Omega_m = $OM
Omega_b = $OB
Omega_L = $(echo "1 - $OM" | bc -l)
H0 = $(echo "100 * $H" | bc -l)
n_s = $NS
sigma_8 = $S8
m_nu1 = 0
m_nu2 = 0
m_nu3 = 0
ZeroRadiation = true
transfer = CAMB_file
transfer_file = transfer_camb.txt
[random]
generator = NGENIC
seed = $5
[execution]
NumThreads = $OMP_NUM_THREADS
[output]
format = AREPO
filename = $6
UseLongids = true
EOF
}
