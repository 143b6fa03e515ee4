/*
 * ff-client NAME [MARKER_FILE]
 *
 * A force-feedback client of the input device named NAME (found among /dev/input/event*), as a
 * game or fftest would be: checks its capabilities, makes uploads the kernel or the device must
 * refuse (an undeclared type, FF_CUSTOM, one effect too many) and two it must take as the
 * kernel's drivers do (an envelope level above 0x7fff, a trigger button it lacks), then uploads
 * and plays each effect type, sets the gain, updates a constant force as ffcfstress does,
 * replaces an effect while it plays, erases one while it plays, plays a rumble again and again
 * for the latency figure, and exits with an endless effect playing (the kernel then erases it).
 * Before each phase it writes "ff-phase NAME" to MARKER_FILE (the kernel's trace_marker), and
 * "ff-latency" right before each timed play, so the kernel lane can read from the SMBus trace what
 * reached the chip in each phase. Prints one line per check; exits 0 when every ioctl answered
 * as expected.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Timed plays for the latency figure (Tests/KernelLane/guest/scenarios.sh expects this many). */
#define LATENCY_PLAYS 200

static int marker = -1;
static int failures = 0;

static void mark(const char *text) {
	if (marker >= 0) (void)!write(marker, text, strlen(text));
}

static void pause_ms(int ms) {
	struct timespec span = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&span, &span) < 0 && errno == EINTR) {}
}

static void expect(int condition, const char *format, ...) {
	va_list arguments;
	va_start(arguments, format);
	printf("ff-client: %s: ", condition ? "ok" : "FAILED");
	vprintf(format, arguments);
	printf("\n");
	va_end(arguments);
	fflush(stdout);
	if (!condition) failures++;
}

/* EVIOCSFF: 0 or -errno; the id the kernel chose is written back into the effect. */
static int upload(int fd, struct ff_effect *effect) {
	return ioctl(fd, EVIOCSFF, effect) < 0 ? -errno : 0;
}

static void play(int fd, int code, int value) {
	struct input_event event;
	memset(&event, 0, sizeof(event));
	event.type = EV_FF;
	event.code = code;
	event.value = value;
	if (write(fd, &event, sizeof(event)) != sizeof(event)) expect(0, "write EV_FF %d %d: %s", code, value, strerror(errno));
}

/* Uploads `effect` (a new one), marks `phase`, plays it once, waits 700 ms and erases it. */
static void play_phase(int fd, struct ff_effect *effect, const char *what, const char *phase) {
	effect->id = -1;
	int result = upload(fd, effect);
	expect(result == 0, "%s uploaded (id %d)", what, effect->id);
	char marker_text[80];
	snprintf(marker_text, sizeof(marker_text), "ff-phase %s", phase);
	mark(marker_text);
	play(fd, effect->id, 1);
	pause_ms(700);
	ioctl(fd, EVIOCRMFF, effect->id);
}

static struct ff_effect rumble(int strong, int weak, int length) {
	struct ff_effect effect;
	memset(&effect, 0, sizeof(effect));
	effect.type = FF_RUMBLE;
	effect.id = -1;
	effect.u.rumble.strong_magnitude = strong;
	effect.u.rumble.weak_magnitude = weak;
	effect.replay.length = length;
	return effect;
}

static int find(const char *name) {
	for (int number = 0; number < 64; number++) {
		char path[64], found[256] = "";
		snprintf(path, sizeof(path), "/dev/input/event%d", number);
		int fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) continue;
		if (ioctl(fd, EVIOCGNAME(sizeof(found) - 1), found) >= 0 && strcmp(found, name) == 0) {
			printf("ff-client: %s is %s\n", name, path);
			return fd;
		}
		close(fd);
	}
	return -1;
}

#define TEST_BIT(bits, bit) ((bits[(bit) / (8 * sizeof(long))] >> ((bit) % (8 * sizeof(long)))) & 1UL)

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s NAME [MARKER_FILE]\n", argv[0]);
		return 2;
	}
	if (argc > 2) marker = open(argv[2], O_WRONLY | O_CLOEXEC);
	int fd = find(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "ff-client: no input device named '%s'\n", argv[1]);
		return 2;
	}

	unsigned long bits[FF_CNT / (8 * sizeof(long)) + 1];
	memset(bits, 0, sizeof(bits));
	ioctl(fd, EVIOCGBIT(EV_FF, sizeof(bits)), bits);
	int codes[] = {FF_RUMBLE, FF_PERIODIC, FF_CONSTANT, FF_RAMP, FF_SINE, FF_SQUARE, FF_TRIANGLE, FF_SAW_UP, FF_SAW_DOWN, FF_GAIN};
	int declared = 1;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) declared &= (int)TEST_BIT(bits, codes[i]);
	int slots = 0;
	ioctl(fd, EVIOCGEFFECTS, &slots);
	expect(declared && !TEST_BIT(bits, FF_SPRING) && slots == 16, "capabilities: rumble, periodic (5 waveforms), constant, ramp, gain, no spring; %d effects", slots);

	/* What must be refused. */
	struct ff_effect spring;
	memset(&spring, 0, sizeof(spring));
	spring.type = FF_SPRING;
	spring.id = -1;
	int result = upload(fd, &spring);
	expect(result == -EINVAL, "FF_SPRING upload refused with EINVAL (got %d)", result);
	struct ff_effect custom;
	memset(&custom, 0, sizeof(custom));
	custom.type = FF_PERIODIC;
	custom.id = -1;
	custom.u.periodic.waveform = FF_CUSTOM;
	custom.u.periodic.period = 10;
	result = upload(fd, &custom);
	expect(result == -EINVAL, "FF_CUSTOM waveform refused with EINVAL (got %d)", result);
	struct ff_effect loud;
	memset(&loud, 0, sizeof(loud));
	loud.type = FF_CONSTANT;
	loud.id = -1;
	loud.u.constant.level = 0x1000;
	loud.u.constant.envelope.attack_length = 100;
	loud.u.constant.envelope.attack_level = 0x8000;
	loud.replay.length = 100;
	result = upload(fd, &loud);
	/* ff-memless and hid-pidff take it as 0x7fff; ffcfstress writes its signed force there. */
	expect(result == 0, "envelope attack level 0x8000 accepted, as the kernel's drivers accept it (got %d)", result);
	if (result == 0) ioctl(fd, EVIOCRMFF, loud.id);
	struct ff_effect triggered = rumble(0x1000, 0, 100);
	triggered.trigger.button = BTN_SOUTH;
	result = upload(fd, &triggered);
	/* ff-memless ignores trigger.button: every kernel rumble device takes it. */
	expect(result == 0, "trigger button the device lacks accepted, as the kernel's drivers accept it (got %d)", result);
	if (result == 0) ioctl(fd, EVIOCRMFF, triggered.id);
	int ids[16], filled = 0;
	for (int i = 0; i < slots && i < 16; i++) {
		struct ff_effect effect = rumble(0x1000, 0x1000, 100);
		if (upload(fd, &effect) == 0) ids[filled++] = effect.id;
	}
	struct ff_effect extra = rumble(0x1000, 0x1000, 100);
	result = upload(fd, &extra);
	expect(filled == slots && result == -ENOSPC, "%d effects fill the device, one more refused with ENOSPC (got %d)", filled, result);
	int erased = 0;
	for (int i = 0; i < filled; i++) erased += ioctl(fd, EVIOCRMFF, ids[i]) == 0;
	expect(erased == filled, "all %d erased", erased);

	/* Each type plays. */
	struct ff_effect effect = rumble(0xffff, 0, 300);
	result = upload(fd, &effect);
	expect(result == 0, "FF_RUMBLE uploaded (id %d)", effect.id);
	mark("ff-phase rumble");
	play(fd, effect.id, 1);
	pause_ms(600);
	play(fd, FF_GAIN, 0x8000);
	mark("ff-phase gain");
	play(fd, effect.id, 1);
	pause_ms(600);
	play(fd, FF_GAIN, 0xffff);
	ioctl(fd, EVIOCRMFF, effect.id);

	struct { int waveform; const char *name; } waves[] = {
		{FF_SQUARE, "square"}, {FF_TRIANGLE, "triangle"}, {FF_SINE, "sine"}, {FF_SAW_UP, "saw-up"}, {FF_SAW_DOWN, "saw-down"},
	};
	for (size_t i = 0; i < sizeof(waves) / sizeof(waves[0]); i++) {
		memset(&effect, 0, sizeof(effect));
		effect.type = FF_PERIODIC;
		effect.u.periodic.waveform = waves[i].waveform;
		/* A period long enough that each wave stays above the check's level for tens of
		 * milliseconds (a saw-up for about a quarter of a period): the emulated guest stalls the
		 * timing thread that long at times, and a stream resyncs to its newest value, so a crest
		 * only a few milliseconds wide (as with a 200 ms period) could be skipped. */
		effect.u.periodic.period = 300;
		effect.u.periodic.magnitude = 0x7fff;
		effect.replay.length = 600;
		char what[64], phase[64];
		snprintf(what, sizeof(what), "FF_PERIODIC %s", waves[i].name);
		snprintf(phase, sizeof(phase), "periodic-%s", waves[i].name);
		play_phase(fd, &effect, what, phase);
	}

	memset(&effect, 0, sizeof(effect));
	effect.type = FF_CONSTANT;
	effect.u.constant.level = 0x7fff;
	effect.u.constant.envelope.attack_length = 200;
	effect.u.constant.envelope.attack_level = 0;
	effect.replay.length = 400;
	play_phase(fd, &effect, "FF_CONSTANT with a 200 ms attack", "constant");

	memset(&effect, 0, sizeof(effect));
	effect.type = FF_RAMP;
	effect.u.ramp.start_level = 0;
	effect.u.ramp.end_level = 0x7fff;
	effect.replay.length = 400;
	play_phase(fd, &effect, "FF_RAMP", "ramp");

	/* ffcfstress's way of driving a constant force (the joystick package's stress test; it needs
	 * an absolute axis, which this device does not have): one FF_CONSTANT of length 0xffff played
	 * once, then uploaded again with each new force, the signed level also written into the
	 * envelope's levels (`attack_level = (short)(force * 32767)`), so a negative force puts 0x8000
	 * or more there. Every update is taken, as the kernel's drivers take it, and plays. */
	memset(&effect, 0, sizeof(effect));
	effect.type = FF_CONSTANT;
	effect.id = -1;
	effect.direction = 0xc000;
	effect.replay.length = 0xffff;
	result = upload(fd, &effect);
	mark("ff-phase stress");
	play(fd, effect.id, 1);
	int updates = 0;
	for (int i = 0; i < 20; i++) {
		short level = (short)((i % 2 ? -1 : 1) * (0x2000 + i * 0x500));
		effect.u.constant.level = level;
		effect.u.constant.envelope.attack_level = (unsigned short)level;
		effect.u.constant.envelope.fade_level = (unsigned short)level;
		updates += upload(fd, &effect) == 0;
		pause_ms(40);
	}
	expect(result == 0 && updates == 20, "FF_CONSTANT updated 20 times as ffcfstress updates it, signed levels in its envelope: %d taken", updates);
	mark("ff-phase stress-end");
	ioctl(fd, EVIOCRMFF, effect.id);
	pause_ms(300);

	/* Replaced while it plays, then erased while it plays. */
	effect = rumble(0x4000, 0, 0);
	result = upload(fd, &effect);
	mark("ff-phase replace-before");
	play(fd, effect.id, 1);
	pause_ms(400);
	mark("ff-phase replace");
	effect.u.rumble.strong_magnitude = 0xffff;
	result |= upload(fd, &effect);
	expect(result == 0, "endless FF_RUMBLE uploaded and replaced while playing (id %d)", effect.id);
	pause_ms(400);
	mark("ff-phase erase");
	result = ioctl(fd, EVIOCRMFF, effect.id) < 0 ? -errno : 0;
	expect(result == 0, "erased while playing");
	pause_ms(400);

	/* The latency figure: each play after the chip went quiet (the 20 ms rumble has ended). Enough
	 * plays that the p99 the lane prints is not simply the longest. */
	effect = rumble(0xffff, 0, 20);
	result = upload(fd, &effect);
	mark("ff-phase latency");
	for (int i = 0; i < LATENCY_PLAYS; i++) {
		pause_ms(50);
		mark("ff-latency");
		play(fd, effect.id, 1);
	}
	pause_ms(200);
	ioctl(fd, EVIOCRMFF, effect.id);

	/* Leaving mid-play: closing the device erases (and stops) what this client uploaded. */
	effect = rumble(0xffff, 0, 0);
	upload(fd, &effect);
	mark("ff-phase close");
	play(fd, effect.id, 1);
	pause_ms(300);
	mark("ff-phase closed");
	close(fd);
	pause_ms(300);
	printf("ff-client: %d failed\n", failures);
	return failures == 0 ? 0 : 1;
}
