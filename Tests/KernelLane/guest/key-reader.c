/*
 * key-reader NODE
 *
 * Prints every EV_KEY and EV_REL event of input device NODE, one a line, as
 *   key CODE VALUE      (VALUE 1 pressed, 0 released, 2 auto-repeat)
 *   rel CODE VALUE
 * until SIGTERM or SIGINT; then "key-reader: N events". Prints "ready" once the node is open.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;

static void on_signal(int number) {
	(void)number;
	stopping = 1;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s NODE\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction action;
	memset(&action, 0, sizeof(action));
	action.sa_handler = on_signal;
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "key-reader: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("ready\n");
	long count = 0;
	while (!stopping) {
		struct pollfd ready = {.fd = fd, .events = POLLIN};
		if (poll(&ready, 1, 100) <= 0) continue;
		struct input_event event;
		while (read(fd, &event, sizeof(event)) == (ssize_t)sizeof(event)) {
			if (event.type == EV_KEY) printf("key %u %d\n", event.code, event.value);
			else if (event.type == EV_REL) printf("rel %u %d\n", event.code, event.value);
			else continue;
			count++;
		}
	}
	printf("key-reader: %ld events\n", count);
	close(fd);
	return 0;
}
