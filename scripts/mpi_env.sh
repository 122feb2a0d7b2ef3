# Sourced by the run scripts: lets OpenMPI run as root in containers and
# oversubscribe the small CI machines (2 cores, up to 4 ranks in the tests).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
export OMPI_MCA_btl_vader_single_copy_mechanism=none
