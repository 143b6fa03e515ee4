/*
 * ff-recorder NAME [--no-ff]
 *
 * A rumble device for the kernel lane, made with uinput: EV_FF with FF_RUMBLE, FF_PERIODIC
 * (FF_SINE) and FF_GAIN, 4 effect slots, named NAME. It stores every upload and prints one line
 * for each request a client makes, with the CLOCK_MONOTONIC time in seconds:
 *   T upload id=ID type=0xTT strong=S weak=W level=L length=MS
 *   T erase id=ID
 *   T play id=ID count=N        (count 0: stop)
 *   T gain G
 * With --no-ff it is a device with one key and no force feedback, for the board check's sake.
 * Prints "ready" once the device exists; SIGTERM or SIGINT removes it and ends the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;

static void on_signal(int number) {
	(void)number;
	stopping = 1;
}

static double now(void) {
	struct timespec time;
	clock_gettime(CLOCK_MONOTONIC, &time);
	return time.tv_sec + time.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s NAME [--no-ff]\n", argv[0]);
		return 2;
	}
	int with_ff = !(argc > 2 && strcmp(argv[2], "--no-ff") == 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction action;
	memset(&action, 0, sizeof(action));
	action.sa_handler = on_signal;
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);

	int fd = open("/dev/uinput", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		perror("ff-recorder: /dev/uinput");
		return 1;
	}
	struct uinput_setup setup;
	memset(&setup, 0, sizeof(setup));
	setup.id.bustype = BUS_VIRTUAL;
	setup.id.vendor = 0x1209;
	setup.id.product = 0x0ff0;
	setup.id.version = 1;
	snprintf(setup.name, sizeof(setup.name), "%s", argv[1]);
	if (with_ff) {
		ioctl(fd, UI_SET_EVBIT, EV_FF);
		ioctl(fd, UI_SET_FFBIT, FF_RUMBLE);
		ioctl(fd, UI_SET_FFBIT, FF_PERIODIC);
		ioctl(fd, UI_SET_FFBIT, FF_SINE);
		ioctl(fd, UI_SET_FFBIT, FF_GAIN);
		setup.ff_effects_max = 4;
	} else {
		ioctl(fd, UI_SET_EVBIT, EV_KEY);
		ioctl(fd, UI_SET_KEYBIT, KEY_A);
	}
	if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
		perror("ff-recorder: create");
		return 1;
	}
	printf("ready\n");
	while (!stopping) {
		struct pollfd ready = {.fd = fd, .events = POLLIN};
		if (poll(&ready, 1, 100) <= 0) continue;
		struct input_event event;
		while (read(fd, &event, sizeof(event)) == sizeof(event)) {
			if (event.type == EV_UINPUT && event.code == UI_FF_UPLOAD) {
				struct uinput_ff_upload upload;
				memset(&upload, 0, sizeof(upload));
				upload.request_id = event.value;
				if (ioctl(fd, UI_BEGIN_FF_UPLOAD, &upload) < 0) continue;
				struct ff_effect *effect = &upload.effect;
				int strong = effect->type == FF_RUMBLE ? effect->u.rumble.strong_magnitude : 0;
				int weak = effect->type == FF_RUMBLE ? effect->u.rumble.weak_magnitude : 0;
				int level = effect->type == FF_PERIODIC ? effect->u.periodic.magnitude : 0;
				printf("%.6f upload id=%d type=0x%x strong=%d weak=%d level=%d length=%d\n", now(), effect->id, effect->type, strong, weak, level,
				       effect->replay.length);
				upload.retval = 0;
				ioctl(fd, UI_END_FF_UPLOAD, &upload);
			} else if (event.type == EV_UINPUT && event.code == UI_FF_ERASE) {
				struct uinput_ff_erase erase;
				memset(&erase, 0, sizeof(erase));
				erase.request_id = event.value;
				if (ioctl(fd, UI_BEGIN_FF_ERASE, &erase) < 0) continue;
				printf("%.6f erase id=%u\n", now(), erase.effect_id);
				erase.retval = 0;
				ioctl(fd, UI_END_FF_ERASE, &erase);
			} else if (event.type == EV_FF && event.code == FF_GAIN) {
				printf("%.6f gain %d\n", now(), event.value);
			} else if (event.type == EV_FF) {
				printf("%.6f play id=%d count=%d\n", now(), event.code, event.value);
			}
		}
	}
	ioctl(fd, UI_DEV_DESTROY);
	close(fd);
	printf("removed\n");
	return 0;
}
