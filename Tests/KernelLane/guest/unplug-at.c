/*
 * unplug-at N FILE VALUE COMMAND [ARG...]
 *
 * Runs COMMAND under ptrace and, when it enters its Nth I2C_SMBUS ioctl, writes VALUE to FILE
 * before letting the call run: with FILE = i2c-stub's chip_addr parameter and VALUE 0, the chip
 * leaves the bus exactly mid-run, however fast or slow the guest is. Exits with COMMAND's status,
 * or 128 + signal when COMMAND was killed by one (so a crash is told apart from an error exit).
 * Exits 125 when COMMAND made fewer than N SMBus calls (the unplug never happened).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_file(const char *path, const char *value) {
	int fd = open(path, O_WRONLY);
	if (fd < 0) return -1;
	ssize_t n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

int main(int argc, char **argv) {
	if (argc < 5) {
		fprintf(stderr, "usage: %s N FILE VALUE COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	long target = strtol(argv[1], NULL, 10);
	pid_t child = fork();
	if (child < 0) { perror("unplug-at: fork"); return 2; }
	if (child == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execvp(argv[4], argv + 4);
		perror("unplug-at: exec");
		_exit(127);
	}
	int status;
	waitpid(child, &status, 0);
	ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	long calls = 0;
	int entering = 1, unplugged = 0, pending_signal = 0;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, child, NULL, (void *)(long)pending_signal) < 0) { perror("unplug-at: ptrace"); return 2; }
		pending_signal = 0;
		if (waitpid(child, &status, 0) < 0) { perror("unplug-at: waitpid"); return 2; }
		if (WIFEXITED(status)) {
			if (!unplugged) { fprintf(stderr, "unplug-at: the command made only %ld SMBus calls\n", calls); return 125; }
			return WEXITSTATUS(status);
		}
		if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
		if (!WIFSTOPPED(status)) continue;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* A real signal for the child: deliver it on the next resume. */
			pending_signal = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
			continue;
		}
		if (entering) {
			struct user_regs_struct regs;
			ptrace(PTRACE_GETREGS, child, NULL, &regs);
			if (regs.orig_rax == SYS_ioctl && regs.rsi == I2C_SMBUS && ++calls == target && !unplugged) {
				if (write_file(argv[2], argv[3]) < 0) { perror("unplug-at: write"); return 2; }
				unplugged = 1;
				fprintf(stderr, "unplug-at: wrote %s to %s at SMBus call %ld\n", argv[3], argv[2], calls);
			}
		}
		entering = !entering;
	}
}
