// podman on this kind of machine (shared/research/toolchain.md §5): crun and
// the default rlimits fail on hybrid cgroups; runc with cgroupfs works. One
// list for the release script and the container tests.
export const PODMAN_GLOBAL = ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
