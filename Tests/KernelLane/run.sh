#!/usr/bin/env bash
# The kernel lane: the real `hapticboard` binary against Debian's real kernel under QEMU (TCG).
#
# Boots the newest installed Debian kernel (/boot/vmlinuz-*) from an initramfs holding busybox,
# i2c-tools, the gpiod tools, hapticboard built against libgpiod 1.6 (the system's) and 2.x
# (Scripts/fetch-libgpiod2.sh), hapticboard-chip (the DRV2605 model behind i2c-stub) and the
# scenarios in guest/scenarios.sh, which run against /dev/i2c-0 (i2c-stub at 0x5A) and a gpio-sim
# chip whose line HAPTIC_EN is the EN pin of Boards/kernel-lane.yml; and, for sound, snd-aloop's
# Loopback card split by dshare (guest/asound.conf) into the sound output and a PCM-driven LRA of
# Boards/kernel-lane-audio.yml, captured with arecord and measured by hapticboard-capture; and, for
# force feedback, uinput and evdev with two helpers (guest/ff-client.c, guest/ff-recorder.c) and
# the joystick package's fftest and SDL's testhaptic (libsdl2-tests), unmodified, as real clients.
# Fails unless every scenario passes, and ends with one line: `kernel lane: N passed, M failed`.
#
# Installs the Debian packages it needs when they are missing (with sudo unless root). gpio-sim
# (and irq_sim, which Debian's kernel leaves out) are built out of tree from linux-source-6.1, and
# i2c-stub with its chip_addr writable so a scenario can take the chip off the bus mid-run (the
# shipped module cannot: an open /dev/i2c-0 pins it). Built modules and the static parts of the
# initramfs are cached under .build-lane/<kernel version>/, the Swift builds under .build-lane/.
#
# Usage: Tests/KernelLane/run.sh        (HAPTICBOARD_SKIP_LANE=1 Scripts/test.sh skips it)
#        KERNEL_LANE_BUILDS=libgpiod1 Tests/KernelLane/run.sh   builds and runs one libgpiod build
#        only, for a quicker local check (the default, and CI, is "libgpiod1 libgpiod2"; the second
#        build runs the scenarios that exercise GPIO, which is all the builds differ in).
#        KERNEL_LANE_ONLY="buttons two_chips" Tests/KernelLane/run.sh   runs only those scenarios
#        (the names of guest/scenarios.sh's scenario_* functions), for a quicker local check.
#        KERNEL_LANE_FF_STEPS=1 Tests/KernelLane/run.sh   the force-feedback scenario also traces the
#        provider's reading thread (its syscalls and scheduling) and prints where each timed play's
#        EV_FF write → first bus write went, step by step (the tracing adds to the figure: off in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
repository=$PWD
lane="$repository/Tests/KernelLane"
cache="$repository/.build-lane"

started=$SECONDS
# Each line says how far into the lane it is, so the build steps' share of CI's time shows.
say() { echo "kernel lane: [$((SECONDS - started)) s] $*" >&2; }
fail() { echo "kernel lane: error: $*" >&2; exit 1; }

# 1. Packages. The headers and the source must match the kernel that boots, so they come after the
# image, at its version: the archive's newest linux-source can be a later upload whose images are
# not published yet (seen: source 6.1.192-3 beside images 6.1.192-2), and the security archive
# keeps the earlier sources.
Scripts/install-deps.sh qemu-system-x86 linux-image-amd64 busybox-static cpio i2c-tools gpiod \
    alsa-utils curl build-essential kmod xz-utils joystick libsdl2-tests
kernel_version=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|.*/vmlinuz-||' | sort -V | tail -1)
[ -n "$kernel_version" ] || fail "no kernel in /boot (linux-image-amd64 installs one)"
kernel_package_version=$(dpkg-query -W -f='${Version}' "linux-image-$kernel_version")
Scripts/install-deps.sh "linux-headers-$kernel_version" "linux-source-6.1=$kernel_package_version" \
    || fail "linux-source-6.1 $kernel_package_version, the source of linux-image-$kernel_version, cannot be installed; the archive offers: $(apt-cache madison linux-source-6.1 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); printf "%s ", $2}')"
source_package_version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
[ "$kernel_package_version" = "$source_package_version" ] \
    || fail "linux-image-$kernel_version is $kernel_package_version but linux-source-6.1 is $source_package_version: gpio-sim is built from that source against the kernel's internal gpiolib.h, so they must match"
say "kernel $kernel_version ($kernel_package_version)"

kernel_cache="$cache/$kernel_version"
modules="$kernel_cache/modules"
mkdir -p "$kernel_cache"

# 2. Modules: out-of-tree gpio-sim, irq_sim and the patched i2c-stub; the rest ship with the kernel.
if [ ! -f "$modules/.complete" ]; then
    say "building gpio-sim, irq-sim-ext and i2c-stub for $kernel_version"
    source_dir="$kernel_cache/source"
    rm -rf "$source_dir" "$modules"
    mkdir -p "$source_dir" "$modules"
    tar -xf /usr/src/linux-source-6.1.tar.xz -C "$source_dir" --strip-components=1 \
        linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
        linux-source-6.1/kernel/irq/irq_sim.c linux-source-6.1/drivers/i2c/i2c-stub.c
    build="$kernel_cache/module-build"
    rm -rf "$build"; mkdir -p "$build"
    cp "$source_dir/drivers/gpio/gpio-sim.c" "$source_dir/drivers/gpio/gpiolib.h" "$build/"
    # Debian builds with CONFIG_IRQ_SIM=n, so irq_sim.c becomes a module of its own;
    # irq_to_desc() is not exported, generic_handle_irq_safe() is.
    sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq_safe(irqnum);/' \
        "$source_dir/kernel/irq/irq_sim.c" > "$build/irq-sim-ext.c"
    printf '#include <linux/module.h>\nMODULE_LICENSE("GPL");\n' >> "$build/irq-sim-ext.c"
    sed 's/module_param_array(chip_addr, ushort, NULL, S_IRUGO);/module_param_array(chip_addr, ushort, NULL, S_IRUGO | S_IWUSR);/' \
        "$source_dir/drivers/i2c/i2c-stub.c" > "$build/i2c-stub.c"
    grep -q 'chip_addr, ushort, NULL, S_IRUGO | S_IWUSR' "$build/i2c-stub.c" \
        || fail "could not make i2c-stub's chip_addr writable: drivers/i2c/i2c-stub.c changed"
    echo 'obj-m := irq-sim-ext.o gpio-sim.o i2c-stub.o' > "$build/Makefile"
    make -s -C "/lib/modules/$kernel_version/build" M="$build" modules 2>&1 | grep -v 'Skipping BTF' >&2 || true
    for module in irq-sim-ext gpio-sim i2c-stub; do
        [ -f "$build/$module.ko" ] || fail "the out-of-tree build produced no $module.ko"
        cp "$build/$module.ko" "$modules/"
    done
    shipped=(kernel/fs/configfs/configfs.ko kernel/drivers/i2c/i2c-dev.ko
             kernel/sound/soundcore.ko kernel/sound/core/snd.ko kernel/sound/core/snd-timer.ko
             kernel/sound/core/snd-pcm.ko kernel/sound/drivers/snd-aloop.ko)
    for module in "${shipped[@]}"; do
        # A glob, not ls | head: an unmatched ls or a SIGPIPE would end the script under pipefail
        # before the message below.
        matches=("/lib/modules/$kernel_version/$module"*)
        found=${matches[0]}
        [ -e "$found" ] || fail "linux-image-$kernel_version has no $module"
        case "$found" in
            *.xz) xz -dc "$found" > "$modules/$(basename "$module")" ;;
            *.zst) zstd -qdc "$found" > "$modules/$(basename "$module")" ;;
            *) cp "$found" "$modules/" ;;
        esac
    done
    touch "$modules/.complete"
fi
# A second SMBus stub, i2c-stub-b (/dev/i2c-1), for the two-chip scenario: the same source under
# another module name, so each adapter holds its own DRV2605L at 0x5A, as two buses of a controller
# do. Built apart from the modules above so a cache made before it was needed gains it.
if [ ! -f "$modules/i2c-stub-b.ko" ]; then
    say "building i2c-stub-b (a second SMBus stub adapter) for $kernel_version"
    build="$kernel_cache/module-build-b"
    rm -rf "$build"; mkdir -p "$build"
    tar -xOf /usr/src/linux-source-6.1.tar.xz linux-source-6.1/drivers/i2c/i2c-stub.c > "$build/i2c-stub-b.c"
    echo 'obj-m := i2c-stub-b.o' > "$build/Makefile"
    make -s -C "/lib/modules/$kernel_version/build" M="$build" modules 2>&1 | grep -v 'Skipping BTF' >&2 || true
    [ -f "$build/i2c-stub-b.ko" ] || fail "the out-of-tree build produced no i2c-stub-b.ko"
    cp "$build/i2c-stub-b.ko" "$modules/"
fi
# Input devices (evdev, uinput) for force feedback; copied apart from the build above so a cache made
# before they were needed gains them.
for module in kernel/drivers/input/evdev.ko kernel/drivers/input/misc/uinput.ko; do
    [ -f "$modules/$(basename "$module")" ] && continue
    matches=("/lib/modules/$kernel_version/$module"*)
    found=${matches[0]}
    [ -e "$found" ] || fail "linux-image-$kernel_version has no $module"
    case "$found" in
        *.xz) xz -dc "$found" > "$modules/$(basename "$module")" ;;
        *.zst) zstd -qdc "$found" > "$modules/$(basename "$module")" ;;
        *) cp "$found" "$modules/" ;;
    esac
done

# 3. The binaries: static Swift standard library, one build per libgpiod major version, in one
#    scratch folder. Only CDrivers' two GPIO files see the library's header (the headers Swift
#    imports never include gpiod.h), so for each build their objects are removed and compiled again
#    (against 1.6 from /usr/include; against 2.x through CPATH, which clang searches before the
#    system's headers) and the binary relinked: the Swift modules are built once, not twice. The
#    NEEDED checks below catch a binary linked against the wrong libgpiod.
#    HAPTICBOARD_LANE_SCRATCH names another scratch folder: the test command keeps it outside the
#    clone, so CI's clean clones reuse the dependencies' release objects (half of this build) and
#    compile only the project's own modules; a machine without it builds everything.
scratch="${HAPTICBOARD_LANE_SCRATCH:-$cache/swift}"
forget_gpio_objects() { find "$scratch" -name 'gpio_libgpiod*.o' -delete 2> /dev/null || true; }
binaries="$cache/binaries/libgpiod1"
binaries_gpiod2="$cache/binaries/libgpiod2"
mkdir -p "$binaries" "$binaries_gpiod2"
say "swift build -c release --static-swift-stdlib (libgpiod $(pkg-config --modversion libgpiod))"
forget_gpio_objects
# Only what the guest runs: the examples and benchmarks are built by the test command already.
for product in hapticboard hapticboard-chip hapticboard-capture; do
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product" >&2
done
cp "$scratch/release/hapticboard" "$scratch/release/hapticboard-chip" "$scratch/release/hapticboard-capture" "$binaries/"
Scripts/fetch-libgpiod2.sh >&2
# shellcheck source=/dev/null
. "$repository/.build-gpiod2/paths.sh"
builds=${KERNEL_LANE_BUILDS:-libgpiod1 libgpiod2}
case " $builds " in *" libgpiod2 "*) with_gpiod2=1 ;; *) with_gpiod2=0 ;; esac
[ "$with_gpiod2" = 1 ] || say "KERNEL_LANE_BUILDS=$builds: the libgpiod 2.x build is skipped"
if [ "$with_gpiod2" = 1 ]; then
    say "swift build -c release --static-swift-stdlib --product hapticboard (libgpiod 2.x: GPIO objects and link only)"
    forget_gpio_objects
    CPATH="$GPIOD2_INCLUDE${CPATH:+:$CPATH}" swift build -c release --static-swift-stdlib --scratch-path "$scratch" \
        --product hapticboard -Xlinker "-L$GPIOD2_LIBDIR" >&2
    cp "$scratch/release/hapticboard" "$binaries_gpiod2/"
fi
# Each build must link the libgpiod it is named after, or the GPIO scenarios would test one twice.
needed_libgpiod() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(libgpiod[^]]*\)\].*/\1/p'; }
[ "$(needed_libgpiod "$binaries/hapticboard")" = libgpiod.so.2 ] \
    || fail "$binaries/hapticboard links '$(needed_libgpiod "$binaries/hapticboard")', expected libgpiod.so.2 (1.6)"
[ "$with_gpiod2" = 0 ] || [ "$(needed_libgpiod "$binaries_gpiod2/hapticboard")" = libgpiod.so.3 ] \
    || fail "$binaries_gpiod2/hapticboard links '$(needed_libgpiod "$binaries_gpiod2/hapticboard")', expected libgpiod.so.3 (2.x)"
# The release command's footprint, on the host before the guest uses it (docs/performance.md).
Scripts/check-resident-memory.sh "$binaries/hapticboard" || fail "the release command is over its resident-memory bound"
gcc -O2 -Wall -Wextra -static -o "$kernel_cache/unplug-at" "$lane/guest/unplug-at.c"
# Force feedback: a client of hapticboard's uinput device, and a uinput rumble device that records.
for helper in ff-client ff-recorder key-reader; do
    gcc -O2 -Wall -Wextra -static -o "$kernel_cache/$helper" "$lane/guest/$helper.c"
done

# 4. The initramfs: a cached base (busybox, tools, modules, ALSA configuration) plus this run's
#    binaries, board file and scenarios. Uncompressed: packing is quicker than gzip on the host.
root="$kernel_cache/root"
rm -rf "$root"
mkdir -p "$root"/{bin,etc,lane/bin,lane/gpiod2,lane/audio,lib/modules,proc,sys,dev,tmp,usr/share,lib64,lib/x86_64-linux-gnu}
copy_with_libraries() { # copy_with_libraries DESTINATION BINARY [LD_LIBRARY_PATH]
    local destination=$1 binary=$2 library_path=${3:-}
    cp "$binary" "$destination/"
    local libraries
    libraries=$(LD_LIBRARY_PATH="$library_path" ldd "$binary" | grep -o '/[^ ]*' ) \
        || fail "ldd $binary failed"
    for library in $libraries; do
        # Libraries unpacked inside the repository (libgpiod 2.x) are placed by the caller.
        case "$library" in "$repository"/*) continue ;; esac
        [ -e "$root$library" ] || { mkdir -p "$root$(dirname "$library")"; cp -L "$library" "$root$library"; }
    done
}
cp /bin/busybox "$root/bin/"
for tool in i2cget i2cset i2cdump i2cdetect; do copy_with_libraries "$root/bin" "/usr/sbin/$tool"; done
for tool in gpiodetect gpioinfo gpioget gpioset gpiomon arecord curl fftest; do copy_with_libraries "$root/bin" "/usr/bin/$tool"; done
# SDL's own haptic tests, unmodified from Debian, as games reach force feedback. SDL opens libudev
# with dlopen (ldd does not list it), and its haptic subsystem does not start without it.
for tool in testhaptic testrumble; do copy_with_libraries "$root/bin" "/usr/libexec/installed-tests/SDL2/$tool"; done
# The readers take the first match but read to the end: a reader that quits early (head, awk's
# exit) can leave ldconfig writing to a closed pipe, and its SIGPIPE (141) then fails this script
# under pipefail (awk's exit did so in 15 runs of 300 on an idle machine, and in one CI run).
libudev=$(ldconfig -p | awk '/libudev\.so\.1 \(libc6,x86-64\)/ && !found { print $NF; found = 1 }')
[ -n "$libudev" ] || fail "no libudev.so.1 for SDL's tests (apt-get install libudev1)"
mkdir -p "$root$(dirname "$libudev")"
cp -L "$libudev" "$root$libudev"
cp "$modules"/*.ko "$root/lib/modules/"
cp -r /usr/share/alsa "$root/usr/share/"
cp "$kernel_cache/unplug-at" "$kernel_cache/ff-client" "$kernel_cache/ff-recorder" "$kernel_cache/key-reader" "$root/lane/bin/"
copy_with_libraries "$root/lane/bin" "$binaries/hapticboard-chip"
copy_with_libraries "$root/lane/bin" "$binaries/hapticboard-capture"
# The 2.x build finds libgpiod.so.3 in its own directory: the guest runs it with LD_LIBRARY_PATH.
if [ "$with_gpiod2" = 1 ]; then
    cp -L "$GPIOD2_LIBDIR"/libgpiod.so.3 "$root/lane/gpiod2/"
    copy_with_libraries "$root/lane/bin" "$binaries_gpiod2/hapticboard" "$GPIOD2_LIBDIR"
    mv "$root/lane/bin/hapticboard" "$root/lane/bin/hapticboard-gpiod2"
fi
echo "$builds" > "$root/lane/builds"
echo "${KERNEL_LANE_ONLY:-}" > "$root/lane/only"
echo "${KERNEL_LANE_FF_STEPS:-}" > "$root/lane/ff-steps"
copy_with_libraries "$root/lane/bin" "$binaries/hapticboard"
# libsndfile is loaded when a sound file is first read or written (sound_file.c), so ldd does not
# list it: it and its codecs go in as well.
sndfile=$(ldconfig -p | awk '/libsndfile\.so\.1 / && !found { print $NF; found = 1 }')
[ -n "$sndfile" ] || fail "ldconfig knows no libsndfile.so.1"
for library in "$sndfile" $(ldd "$sndfile" | grep -o '/[^ ]*'); do
    [ -e "$root$library" ] || { mkdir -p "$root$(dirname "$library")"; cp -L "$library" "$root$library"; }
done
strip "$root"/lane/bin/hapticboard* 2>/dev/null || true
cp "$repository/Boards/kernel-lane.yml" "$repository/Boards/kernel-lane-audio.yml" \
    "$repository/Examples/ahap/continuous-envelopes.ahap" "$repository/Examples/ahap/transients.ahap" "$root/lane/"
cp "$lane/guest/kernel-lane-dual.yml" "$root/lane/"
cp "$lane/guest/long-buzz.ahap" "$lane/guest/kernel-lane-ff.yml" "$lane/guest/kernel-lane-buttons.yml" "$root/lane/"
cp "$lane/guest/sound-and-drive.ahap" "$root/lane/audio/"
cp "$lane/guest/emphasis-clip.haptic" "$lane/guest/exported-without-sound.ahap" "$root/lane/"
"$binaries/hapticboard-capture" burst "$root/lane/audio/burst.wav"
cp "$lane/guest/asound.conf" "$root/etc/asound.conf"
cp "$lane/guest/scenarios.sh" "$root/lane/"
cp "$lane/guest/init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet > "$kernel_cache/initrd.cpio")

# 5. Boot. TCG, never KVM (KVM hangs on these machines); one vCPU, as two stalled the guest now and
#    then on a busy host; panic=-1 and -no-reboot end QEMU when the guest's init exits or the
#    kernel panics, the timeout (15 min) when anything hangs. A hang guard, not a time limit: the
#    scenarios take 4–5 minutes for both builds on a quiet host and over 5 on a loaded one (each
#    scenario has its own watchdog), so the guard is far beyond any run that is merely slow.
#    Memory: the initramfs unpacks into the root tmpfs (half the guest's memory) and the scenarios'
#    traces, logs and capture go to its /tmp beside it; at 1 GiB the initramfs alone (over 300 MB
#    with both builds) left so little that a late scenario's files were cut short (seen as a
#    recorder log without its last lines, a capture arecord could not write, an empty sort).
log="$kernel_cache/boot.log"
say "booting $kernel_version under QEMU (TCG); console log: $log"
set +e
timeout 900 qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 3072 -nographic -no-reboot \
    -kernel "/boot/vmlinuz-$kernel_version" -initrd "$kernel_cache/initrd.cpio" \
    -append "console=ttyS0 quiet panic=-1" < /dev/null | tr -d '\r' | tee "$log"
qemu_status=${PIPESTATUS[0]}
set -e

passed=$(grep -c '^PASS: ' "$log" || true)
failed=$(grep -c '^FAIL: ' "$log" || true)
if ! grep -q '^LANE-DONE$' "$log"; then
    say "the guest did not finish its scenarios (QEMU exit $qemu_status; 124 is the timeout): see $log"
    failed=$((failed + 1))
fi
say "took $((SECONDS - started)) s"
echo "kernel lane: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
