/*
 * /bin/sh of the image, which has no shell. Xvfb compiles its keymap by running
 * `/bin/sh -c '"/usr/bin/xkbcomp" -w 1 "-R/usr/share/X11/xkb" -xkm "-" ...'`
 * (xserver os/utils.c Popen) and cannot start without it. This stand-in runs
 * exactly that one program: it splits the -c string into words (double quotes
 * group, nothing else is special), refuses anything but /usr/bin/xkbcomp, and
 * execs it. No variables, pipes, redirections, globbing or interactive mode.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 64

int main(int argc, char **argv) {
  static char buffer[8192];
  char *args[MAX_ARGS + 1];
  int n = 0;
  if (argc != 3 || strcmp(argv[1], "-c") != 0 || strlen(argv[2]) >= sizeof buffer) {
    fputs("sh: this image has no shell (only Xvfb's xkbcomp call is served)\n", stderr);
    return 127;
  }
  strcpy(buffer, argv[2]);
  char *p = buffer;
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    if (n == MAX_ARGS) return 127;
    char *out = p;
    args[n++] = out;
    int quoted = 0;
    while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
      if (*p == '"') quoted = !quoted, p++;
      else *out++ = *p++;
    }
    if (*p) p++;
    *out = '\0';
  }
  args[n] = NULL;
  if (n == 0 || strcmp(args[0], "/usr/bin/xkbcomp") != 0) {
    fputs("sh: this image has no shell (only Xvfb's xkbcomp call is served)\n", stderr);
    return 127;
  }
  execv(args[0], args);
  perror("sh: exec /usr/bin/xkbcomp");
  return 127;
}
