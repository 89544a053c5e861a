/* visible.c - which devices a process sees: CUDA_VISIBLE_DEVICES and
 * CUDA_DEVICE_ORDER as cuInit reads them. The probe first asks the driver
 * for every device (count N, the UUID and PCI bus id of each), then runs
 * itself once per case with the variables set, and the child prints what
 * cuInit answered and which of the parent's devices its ordinals are
 * (matched by UUID). Cases are written relative to N and to device 0's
 * UUID, so that any machine prints the same lines for the same rules:
 * "identity" when the child sees every device in the parent's order.
 * Usage: visible            (all cases)
 *        visible child      (one case, the variables already set) */
#include "common.h"
#include <ctype.h>
#include <sys/wait.h>

#define MAXD 128

static int n_all;
static char uuid_all[MAXD][48];

static void uuid_str(const CUuuid *u, char *out)
{
    const unsigned char *b = (const unsigned char *)u->bytes;
    sprintf(out, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
            "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
            b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* The child: what cuInit answered, how many devices, which they are. */
static int child(void)
{
    char line[2048] = "", u[48], part[64];
    CUresult r = cuInit(0), r2;
    int n = -1, identity = 1;

    if (r != CUDA_SUCCESS) {
        r2 = cuDeviceGetCount(&n);
        CUresult r3 = cuInit(0);
        int v = 0;
        CUresult r4 = cuDriverGetVersion(&v);
        printf("init=%s count_after=%s again=%s version=%s\n", en(r),
               en(r2), en(r3), en(r4));
        return 0;
    }
    CK(cuDeviceGetCount(&n));
    for (int i = 0; i < n; i++) {
        CUdevice d;
        CUuuid uu;
        int k;
        CK(cuDeviceGet(&d, i));
        CK(cuDeviceGetUuid(&uu, d));
        uuid_str(&uu, u);
        for (k = 0; k < n_all && strcmp(uuid_all[k], u); k++)
            ;
        if (k != i)
            identity = 0;
        snprintf(part, sizeof part, "%s%d", i ? "," : "", k);
        strncat(line, part, sizeof line - strlen(line) - 1);
    }
    if (n != n_all)
        identity = 0;
    printf("init=%s count=%s map=%s\n", en(r),
           n == n_all ? "N" : (n == 0 ? "0" : n == 1 ? "1" : "other"),
           identity ? "identity" : (n ? line : "-"));
    return 0;
}

/* Runs the child with CUDA_VISIBLE_DEVICES=cvd (NULL: unset) and
 * CUDA_DEVICE_ORDER=order (NULL: unset); its line follows the case's. */
static void run_case(const char *self, const char *name, const char *cvd,
                     const char *order)
{
    char env_uuids[MAXD * 48 + 16], *p = env_uuids;
    pid_t pid;
    int st;

    printf("visible.%s: ", name);
    fflush(stdout);
    p += sprintf(p, "%d", n_all);
    for (int i = 0; i < n_all; i++)
        p += sprintf(p, " %s", uuid_all[i]);
    if ((pid = fork()) == 0) {
        if (cvd)
            setenv("CUDA_VISIBLE_DEVICES", cvd, 1);
        else
            unsetenv("CUDA_VISIBLE_DEVICES");
        if (order)
            setenv("CUDA_DEVICE_ORDER", order, 1);
        else
            unsetenv("CUDA_DEVICE_ORDER");
        setenv("PROBE_VISIBLE_ALL", env_uuids, 1);
        execl(self, self, "child", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st))
        printf("child ended with status %d\n", st);
    fflush(stdout);
}

static void read_all_from_env(void)
{
    const char *s = getenv("PROBE_VISIBLE_ALL");
    int off = 0;

    if (!s || sscanf(s, "%d%n", &n_all, &off) != 1)
        exit(2);
    s += off;
    for (int i = 0; i < n_all && i < MAXD; i++) {
        if (sscanf(s, " %47s%n", uuid_all[i], &off) != 1)
            exit(2);
        s += off;
    }
}

int main(int argc, char **argv)
{
    char self[4096], buf[256], u0[48], up[48], noprefix[48];
    ssize_t len;
    CUuuid uu;
    CUdevice d;

    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        read_all_from_env();
        return child();
    }
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    CK(cuInit(0));
    CK(cuDeviceGetCount(&n_all));
    if (n_all > MAXD)
        n_all = MAXD;
    for (int i = 0; i < n_all; i++) {
        CK(cuDeviceGet(&d, i));
        CK(cuDeviceGetUuid(&uu, d));
        uuid_str(&uu, uuid_all[i]);
    }
    if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
        return 1;
    self[len] = '\0';
    strcpy(u0, uuid_all[0]);
    for (int i = 0; u0[i]; i++)
        up[i] = (char)toupper((unsigned char)u0[i]), up[i + 1] = '\0';
    up[0] = 'G', up[1] = 'P', up[2] = 'U';
    strcpy(noprefix, u0 + 4);

    run_case(self, "unset", NULL, NULL);
    run_case(self, "empty", "", NULL);
    run_case(self, "zero", "0", NULL);
    snprintf(buf, sizeof buf, "%d", n_all);
    run_case(self, "index_N", buf, NULL);
    snprintf(buf, sizeof buf, "0,%d", n_all);
    run_case(self, "zero_then_N", buf, NULL);
    snprintf(buf, sizeof buf, "%d,0", n_all);
    run_case(self, "N_then_zero", buf, NULL);
    run_case(self, "zero_zero", "0,0", NULL);
    run_case(self, "minus_one", "-1", NULL);
    run_case(self, "minus_one_then_zero", "-1,0", NULL);
    run_case(self, "space_zero", " 0", NULL);
    run_case(self, "zero_space", "0 ", NULL);
    run_case(self, "zero_comma", "0,", NULL);
    run_case(self, "comma_zero", ",0", NULL);
    run_case(self, "zero_zero_padded", "00", NULL);
    run_case(self, "plus_zero", "+0", NULL);
    run_case(self, "hex_zero", "0x0", NULL);
    run_case(self, "letter", "a", NULL);
    run_case(self, "zero_letter", "0a", NULL);
    run_case(self, "uuid", u0, NULL);
    run_case(self, "uuid_upper", up, NULL);
    run_case(self, "uuid_no_prefix", noprefix, NULL);
    snprintf(buf, sizeof buf, "%.12s", u0);
    run_case(self, "uuid_prefix8", buf, NULL);
    snprintf(buf, sizeof buf, "%.6s", u0);
    run_case(self, "uuid_prefix2", buf, NULL);
    run_case(self, "uuid_prefix0", "GPU-", NULL);
    snprintf(buf, sizeof buf, "gpu-%s", u0 + 4);
    run_case(self, "uuid_lower_prefix", buf, NULL);
    run_case(self, "uuid_bad", "GPU-zzzz", NULL);
    snprintf(buf, sizeof buf, "%sx", u0);
    run_case(self, "uuid_trailing", buf, NULL);
    snprintf(buf, sizeof buf, "MIG-%s", u0 + 4);
    run_case(self, "mig_prefix", buf, NULL);
    snprintf(buf, sizeof buf, "%s,0", u0);
    run_case(self, "uuid_then_zero", buf, NULL);
    snprintf(buf, sizeof buf, "0,%s", u0);
    run_case(self, "zero_then_uuid", buf, NULL);
    run_case(self, "order_pci", NULL, "PCI_BUS_ID");
    run_case(self, "order_fastest", NULL, "FASTEST_FIRST");
    run_case(self, "order_bogus", NULL, "BOGUS");
    run_case(self, "order_lower", NULL, "pci_bus_id");
    run_case(self, "order_pci_zero", "0", "PCI_BUS_ID");
    printf("visible.done: ok\n");
    return 0;
}
