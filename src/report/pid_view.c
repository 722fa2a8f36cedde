/*
 * pid_view.c - see pid_view.h.
 */
#include "pid_view.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void mc_pid_view(char *out, size_t cap)
{
    char boot[40] = "";
    struct stat ns;
    if (cap == 0)
        return;
    out[0] = '\0';
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, boot, sizeof boot - 1);
    close(fd);
    if (n <= 0)
        return;
    boot[n] = '\0';
    boot[strcspn(boot, "\n")] = '\0';
    if (stat("/proc/self/ns/pid", &ns) != 0 || !boot[0])
        return;
    snprintf(out, cap, "%s/%llu.%llu", boot, (unsigned long long)ns.st_dev, (unsigned long long)ns.st_ino);
}
