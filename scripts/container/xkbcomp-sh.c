/*
 * /bin/sh of the image, which has no shell. It serves two callers. Xvfb compiles its keymap by running
 * `/bin/sh -c '"/usr/bin/xkbcomp" -w 1 "-R/usr/share/X11/xkb" -xkm "-" ...'`
 * (xserver os/utils.c Popen) and cannot start without it. This stand-in runs
 * exactly that one program: it splits the -c string into words (double quotes
 * group, nothing else is special), refuses anything but /usr/bin/xkbcomp, and
 * execs it. No variables, pipes, redirections, globbing or interactive mode.
 * And Chromium runs the server's xdg-settings script through it (below).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 64

/*
 * The server's xdg-settings helper (src/browser/app-link-guard.ts) is a script
 * Chromium runs as `/bin/sh <dir>/xdg-settings check default-url-scheme-handler
 * <scheme> <desktop file>` before it shows its "Open xdg-open?" dialog for a
 * link to an outside application. Answered here as the script answers it:
 * "yes" (the browser handles it: the link opens nothing, no dialog holds the
 * tab) for every scheme but mailto, news and snews; anything else fails, as
 * the image has no real xdg-settings.
 */
static int xdg_settings(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[2], "check") == 0 && strcmp(argv[3], "default-url-scheme-handler") == 0 &&
      strcmp(argv[4], "mailto") != 0 && strcmp(argv[4], "news") != 0 && strcmp(argv[4], "snews") != 0) {
    puts("yes");
    return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  static char buffer[8192];
  char *args[MAX_ARGS + 1];
  int n = 0;
  size_t first = argc >= 2 ? strlen(argv[1]) : 0;
  if (first > 13 && strcmp(argv[1] + first - 13, "/xdg-settings") == 0) return xdg_settings(argc, argv);
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
