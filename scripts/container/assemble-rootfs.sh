#!/bin/sh
# Runs in the Containerfile's build stage (Debian, with the runtime packages
# installed): copies into /out exactly the files of the runtime packages and of
# everything they depend on, minus the shells, package managers and base tools
# a distroless image must not have. The result is the final image's root.
set -eu
out=/out
want="$*"
# Never in the image: shells, package management, and the userland a shell would use.
exclude=" dash bash coreutils dpkg apt debconf perl-base util-linux sed grep findutils tar gzip diffutils \
login passwd mount ncurses-bin debianutils sensible-utils libc-bin base-passwd init-system-helpers \
adduser procps x11-common ucf libdebconfclient0 base-files bsdutils hostname libpam-runtime libpam-modules \
libpam-modules-bin mawk gpgv sysvinit-utils tzdata \
systemd systemd-sysv libpam-systemd dbus dbus-bin dbus-daemon dbus-user-session dbus-system-bus-common \
dbus-session-bus-common openssl gtk-update-icon-cache "
# (No init system or message bus runs in the container; CA certificates are copied as data below.)

# Provider of each virtual package among the installed ones.
providers=$(dpkg-query -W -f='${Package} ${Provides}\n' | awk '{for(i=2;i<=NF;i++){gsub(/[,(].*/,"",$i); if($i!="") print $i, $1}}')
installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -q '^installed$'; }
resolve() {
  # One dependency alternative list "a | b (>= 1)": the first installed (or provided) one.
  echo "$1" | tr '|' '\n' | while read -r alt; do
    name=$(echo "$alt" | sed 's/[ (].*//; s/:any$//')
    [ -n "$name" ] || continue
    if installed "$name"; then echo "$name"; return; fi
    provider=$(echo "$providers" | awk -v n="$name" '$1==n{print $2; exit}')
    if [ -n "$provider" ]; then echo "$provider"; return; fi
  done
}

seen=" "
queue="$want"
while [ -n "$queue" ]; do
  set -- $queue
  pkg=$1; shift; queue="$*"
  case "$seen" in *" $pkg "*) continue ;; esac
  seen="$seen$pkg "
  case "$exclude" in *" $pkg "*) continue ;; esac
  installed "$pkg" || { echo "assemble-rootfs: $pkg is not installed" >&2; exit 1; }
  deps=$(dpkg-query -W -f='${Pre-Depends}, ${Depends}' "$pkg" | tr ',' '\n')
  queue="$queue $(echo "$deps" | while read -r dep; do [ -n "$dep" ] && resolve "$dep"; done | tr '\n' ' ')"
done
kept=$(for p in $seen; do case "$exclude" in *" $p "*) ;; *) echo "$p" ;; esac; done)
echo "assemble-rootfs: $(echo "$kept" | wc -l) packages: $(echo $kept)" >&2

mkdir -p "$out/usr/bin" "$out/usr/lib" "$out/usr/lib64" "$out/usr/sbin"
# Debian bookworm is merged-/usr: /bin, /lib, ... are links into /usr.
for d in bin lib lib64 sbin; do [ -L "/$d" ] && ln -s "usr/$d" "$out/$d"; done
for p in $kept; do dpkg -L "$p"; done | sort -u | while read -r f; do
  if [ -L "$f" ] || [ -f "$f" ]; then echo "$f"; fi
done > /tmp/files
tar --no-recursion -cf - -T /tmp/files | tar -C "$out" --keep-directory-symlink -xf -

# Generated at install time, owned by no package.
tar -cf - /etc/ld.so.cache /etc/ssl/certs /var/cache/fontconfig 2>/dev/null | tar -C "$out" --keep-directory-symlink -xf -
# The chromium command is a shell wrapper; with no shell, point it at the binary.
rm -f "$out/usr/bin/chromium"
ln -s /usr/lib/chromium/chromium "$out/usr/bin/chromium"
# What the image is made of, for SBOMs and scanners (no dpkg database in the image).
mkdir -p "$out/usr/share/stealth-playwright-mcp"
dpkg-query -W -f='${Package}\t${Version}\t${Architecture}\n' $kept | sort > "$out/usr/share/stealth-playwright-mcp/packages.tsv"
# Drop what only a package manager or a human would read.
rm -rf "$out/usr/share/doc" "$out/usr/share/man" "$out/usr/share/info" "$out/usr/share/lintian" "$out/usr/share/bug"
