#ifndef HAPTICBOARD_CDRIVERS_H
#define HAPTICBOARD_CDRIVERS_H
/*
 * Thin C shims over i2c-dev + libi2c, libgpiod (1.6 or 2.x), ALSA, libsndfile, libsamplerate and the
 * real-time thread calls (prctl, sched, timerfd), so the Swift side never sees a macro-heavy, variadic
 * or version-specific C API.
 *
 * Every function that can fail returns 0 on success or a positive errno. None of them prints,
 * aborts or keeps global state; handles are owned by the caller and released exactly once.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- I2C (/dev/i2c-N) */

/* The most messages the kernel accepts in one I2C_RDWR transfer. */
#define HB_I2C_MAX_MESSAGES 42

/* Adapter capability bits from I2C_FUNCS (linux/i2c.h), re-exported for Swift. */
#define HB_I2C_FUNC_I2C 0x00000001UL
#define HB_I2C_FUNC_10BIT_ADDR 0x00000002UL
#define HB_I2C_FUNC_PROTOCOL_MANGLING 0x00000004UL
#define HB_I2C_FUNC_SMBUS_READ_BYTE_DATA 0x00080000UL
#define HB_I2C_FUNC_SMBUS_WRITE_BYTE_DATA 0x00100000UL

/* One message of a combined transfer; `buffer` holds `length` bytes to send or to fill. */
typedef struct hb_i2c_message {
    uint16_t address;
    uint16_t is_read;
    uint16_t length;
    uint8_t *buffer;
} hb_i2c_message;

/* Opens an i2c-dev node read-write and close-on-exec; the descriptor goes to *fd. */
int hb_i2c_open(const char *path, int *fd);
int hb_i2c_close(int fd);
/* Sends `count` messages as one I2C_RDWR transfer: repeated STARTs between them, one STOP. */
int hb_i2c_transfer(int fd, hb_i2c_message *messages, size_t count);
/* SMBus "read/write byte data" (register access) through libi2c, after selecting `address`
 * (I2C_SLAVE) unless `*selected`, the address the descriptor selected last plus one (0: none
 * known), says it is selected already; `*selected` is kept up to date. */
int hb_i2c_smbus_read_byte_data(int fd, uint8_t address, uint8_t reg, uint8_t *value, int *selected);
int hb_i2c_smbus_write_byte_data(int fd, uint8_t address, uint8_t reg, uint8_t value, int *selected);
/* The adapter's I2C_FUNCS bit mask (see HB_I2C_FUNC_*). */
int hb_i2c_functionality(int fd, unsigned long *functionality);

/* ---------------------------------------------------------------- GPIO (libgpiod) */

/* A requested GPIO line; opaque so the same API fronts libgpiod 1.6 and 2.x. */
typedef struct hb_gpio_line hb_gpio_line;

/* Which step of a request failed, so errors can say whether the chip, the name or the line was at fault. */
typedef enum hb_gpio_stage {
    HB_GPIO_STAGE_NONE = 0,
    HB_GPIO_STAGE_CHIP_OPEN = 1,
    HB_GPIO_STAGE_LOOKUP = 2,
    HB_GPIO_STAGE_REQUEST = 3,
} hb_gpio_stage;

typedef enum hb_gpio_edge {
    HB_GPIO_EDGE_NONE = 0,
    HB_GPIO_EDGE_RISING = 1,
    HB_GPIO_EDGE_FALLING = 2,
} hb_gpio_edge;

/* The consumer name every request carries, as shown by `gpioinfo`. */
#define HB_GPIO_CONSUMER "hapticboard"

/* The libgpiod API major version this build was compiled against (1 or 2). */
int hb_gpio_libgpiod_api_major(void);

/*
 * Requests one line. Give either `line_name` (searched on every /dev/gpiochip*) or `chip_path` and
 * `offset`. An output starts at `initial_value` (0 or 1); an input has both-edge events enabled.
 * On failure *stage says which step failed.
 */
int hb_gpio_request(const char *chip_path, const char *line_name, unsigned int offset, int is_output,
                    int initial_value, hb_gpio_line **line, hb_gpio_stage *stage);
/* An input line's bias (pull resistor); AS_IS leaves whatever the firmware or devicetree set. */
typedef enum hb_gpio_bias {
    HB_GPIO_BIAS_AS_IS = 0,
    HB_GPIO_BIAS_DISABLED = 1,
    HB_GPIO_BIAS_PULL_UP = 2,
    HB_GPIO_BIAS_PULL_DOWN = 3,
} hb_gpio_bias;

/* How an input line is requested: bias, whether low is the active level, and a debounce period. */
typedef struct hb_gpio_input_settings {
    hb_gpio_bias bias;
    /* Non-zero: low is active, so values and edges are reported inverted (rising = became active). */
    int active_low;
    /* Asked for the kernel's debounce (uAPI v2 `debounce_period_us`); 0 for none. */
    unsigned int debounce_us;
} hb_gpio_input_settings;

/*
 * Requests one input line with both-edge events and `settings`. *debounce_us is the debounce period
 * the kernel applies: the period asked for with libgpiod 2 (the kernel debounces in hardware where
 * the line supports it and in its edge interrupt otherwise), 0 with libgpiod 1.6 (uAPI v1 has no
 * debounce), so the caller debounces in software.
 */
int hb_gpio_request_input(const char *chip_path, const char *line_name, unsigned int offset,
                          const hb_gpio_input_settings *settings, hb_gpio_line **line, hb_gpio_stage *stage,
                          unsigned int *debounce_us);
int hb_gpio_set_value(hb_gpio_line *line, int value);
int hb_gpio_get_value(hb_gpio_line *line, int *value);
/*
 * Waits up to `timeout_ns` for one edge. *edge is HB_GPIO_EDGE_NONE when the time ran out;
 * otherwise the edge and its kernel timestamp (CLOCK_MONOTONIC nanoseconds).
 */
int hb_gpio_wait_edge(hb_gpio_line *line, int64_t timeout_ns, hb_gpio_edge *edge, uint64_t *timestamp_ns);
void hb_gpio_release(hb_gpio_line *line);
/*
 * Where a requested line lives: the path of its GPIO chip's character device (/dev/gpiochipN, at
 * most `size` bytes with the NUL, else ENAMETOOLONG) and its offset there, whether it was requested
 * by name or by chip and offset. The crash guardian requests the line itself through this path.
 */
int hb_gpio_line_location(hb_gpio_line *line, char *chip_path, size_t size, unsigned int *offset);
/*
 * The kernel descriptor of an output line's request and the GPIO uAPI it speaks (1: a v1 line
 * handle, as libgpiod 1.6 requests; 2: a v2 line request, as libgpiod 2 does), so the crash guardian
 * can keep a copy and drive the line low through it the moment this process starts to die. ENOENT
 * for an input line, or when it is not known.
 */
int hb_gpio_output_request(hb_gpio_line *line, int *fd, int *uapi_version);

/* ---------------------------------------------------------------- ALSA PCM playback */

/* An open, configured S16_LE interleaved playback stream; opaque to keep alsa/asoundlib.h out of Swift. */
typedef struct hb_pcm hb_pcm;

/*
 * Opens `device` for blocking playback and configures it: S16_LE interleaved, exact rate and
 * channels, the period nearest `*period_frames` (updated to what the device chose) and a buffer of
 * four periods (`*buffer_frames`: what the device granted). On failure *failed_setting names the
 * setting (a static string), and `reason` (`reason_size` bytes, never NULL) holds the first message
 * alsa-lib gave, empty when it gave none: its own reason for refusing a device (an ALSA dshare
 * channel already in use, a slave that refused its configuration), which errno alone does not say.
 */
int hb_pcm_open(const char *device, unsigned int rate, unsigned int channels, unsigned long *period_frames,
                unsigned long *buffer_frames, hb_pcm **pcm, const char **failed_setting, char *reason,
                size_t reason_size);
/*
 * Writes all `frames` interleaved frames, recovering from underruns (snd_pcm_recover); *recoveries
 * counts them. *written holds the frames accepted even on failure.
 */
int hb_pcm_write(hb_pcm *pcm, const int16_t *samples, unsigned long frames, unsigned long *written,
                 unsigned int *recoveries);
/* Frames queued ahead of the output (snd_pcm_delay); 0 when the stream is not running. */
int hb_pcm_delay(hb_pcm *pcm, long *frames);
/* The delay with the CLOCK_MONOTONIC instant it was true (the last position update, from
 * snd_pcm_status with timestamps enabled); *measured_ns is 0 when the stream is not running or the
 * device gives no timestamp, and the delay is then as of now. */
int hb_pcm_delay_at(hb_pcm *pcm, long *frames, int64_t *measured_ns);
/* Plays out what is queued, then leaves the stream ready for more writes. */
int hb_pcm_drain(hb_pcm *pcm);
/* Discards what is queued, then leaves the stream ready for more writes. */
int hb_pcm_drop(hb_pcm *pcm);
void hb_pcm_close(hb_pcm *pcm);

/* ---------------------------------------------------------------- Sound files (libsndfile) and resampling (libsamplerate) */

/*
 * Decodes every frame of the sound file at `path` (any format libsndfile reads: WAV, FLAC, OGG/Vorbis, …)
 * to interleaved floats in -1…1. On success *samples (free with hb_sound_file_free) holds
 * *frames × *channels values at *rate hertz. On failure the result is libsndfile's error number
 * (HB_SOUND_FILE_TOO_LARGE when the file cannot fit in memory), *message its text (copy it at once:
 * libsndfile reuses the buffer) and *opened whether the file was opened (so the failure was in decoding).
 */
#define HB_SOUND_FILE_TOO_LARGE 10000
int hb_sound_file_read(const char *path, float **samples, unsigned long *frames, unsigned int *channels,
                       unsigned int *rate, const char **message, int *opened);
void hb_sound_file_free(float *samples);

/*
 * Decodes the sound file at `path` to one channel, the mean of its channels, reading in chunks so
 * memory follows what the file really holds, not what its header claims. Stops with
 * HB_SOUND_FILE_TOO_LONG once more than `max_seconds` of sound decoded (or its header says it holds more). On success *samples (free with
 * hb_sound_file_free) holds *frames floats at *rate hertz and *channels is the file's channel
 * count. Failures are reported as by hb_sound_file_read.
 */
#define HB_SOUND_FILE_TOO_LONG 10001
/* What every sound-file function returns when libsndfile.so.1 cannot be loaded (it is loaded at first use). */
#define HB_SOUND_LIBRARY_MISSING 10002
int hb_sound_file_read_mono(const char *path, double max_seconds, float **samples, unsigned long *frames,
                            unsigned int *channels, unsigned int *rate, const char **message, int *opened);

/*
 * Containers hb_sound_file_write writes: 16-bit PCM WAV, 16-bit FLAC, Vorbis in an Ogg container and
 * 16-bit AIFF (libsndfile's SF_FORMAT_WAV|SF_FORMAT_PCM_16, SF_FORMAT_FLAC|SF_FORMAT_PCM_16,
 * SF_FORMAT_OGG|SF_FORMAT_VORBIS, SF_FORMAT_AIFF|SF_FORMAT_PCM_16).
 */
#define HB_SOUND_FILE_WAV 0
#define HB_SOUND_FILE_FLAC 1
#define HB_SOUND_FILE_OGG_VORBIS 2
#define HB_SOUND_FILE_AIFF 3
/*
 * Encodes `frames` interleaved frames of `channels` floats (-1…1) at `rate` hertz into a new file at
 * `path` in `container`, replacing any file there. The 16-bit containers store each sample as
 * round(x × 32768) clipped to 16 bits, the inverse of hb_sound_file_read's 1/32768, so k/32768
 * comes back exactly. Returns 0, or libsndfile's error number (SF_ERR_UNSUPPORTED_ENCODING for a
 * container this libsndfile cannot write) with *message its text, copied to a per-thread buffer
 * that stays valid until this thread's next failing call.
 */
int hb_sound_file_write(const char *path, int container, const float *samples, unsigned long frames,
                        unsigned int channels, unsigned int rate, const char **message);

/* Whether libsamplerate converts by `ratio` (output rate / input rate): at most 256× either way. */
int hb_resample_ratio_is_valid(double ratio);

/*
 * Converts `input_frames` interleaved frames of `channels` channels by `ratio` (output rate / input rate)
 * with libsamplerate's best band-limited sinc converter, into `output` (room for `output_capacity` frames).
 * *output_frames is what was produced. On failure the result is libsamplerate's error number and *message
 * its (static) text.
 */
int hb_resample(const float *input, unsigned long input_frames, unsigned int channels, double ratio,
                float *output, unsigned long output_capacity, unsigned long *output_frames, const char **message);

/* ---------------------------------------------------------------- Real FFT (kissfft) */

/* A forward real FFT of one even size (kissfft's kiss_fftr), opaque to keep kissfft's headers out of Swift. */
typedef struct hb_fft hb_fft;
/* NULL for a size that is odd, below 2 or above 2^24, or when memory runs out. */
hb_fft *hb_fft_create(unsigned int size);
/* The magnitudes |X[k]| of bins 0…size/2 (size/2 + 1 values) of `size` real input samples. */
void hb_fft_magnitudes(hb_fft *fft, const float *input, float *magnitudes);
void hb_fft_destroy(hb_fft *fft);

/* ---------------------------------------------------------------- Real-time thread set-up */

/* SCHED_FIFO at `priority` for the calling thread (needs CAP_SYS_NICE or RLIMIT_RTPRIO >= priority). */
int hb_rt_set_current_thread_fifo(int priority);
/* Keeps the calling thread on CPU `cpu` (pthread_setaffinity_np); EINVAL when that CPU is not
 * online or not in the process's allowed set (a cpuset, taskset). */
int hb_rt_set_current_thread_cpu(int cpu);
/* PR_SET_TIMERSLACK for the calling thread, in nanoseconds. */
int hb_rt_set_current_thread_timer_slack(unsigned long nanoseconds);
/*
 * mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT): every page the process touches stays resident
 * from its first touch, and nothing is faulted in only to be locked (plain MCL_CURRENT makes every
 * mapped page of every library resident). Only when RLIMIT_MEMLOCK is unlimited or the process has
 * CAP_IPC_LOCK (EPERM otherwise: a finite limit would make later allocations fail). EINVAL on a
 * kernel without MCL_ONFAULT (before Linux 4.4). *memlock_limit receives the soft RLIMIT_MEMLOCK
 * in bytes, UINT64_MAX when unlimited.
 */
int hb_rt_lock_memory_on_fault(uint64_t *memlock_limit);
/* Touches `bytes` of the calling thread's stack below the caller, so the timing path's stack
 * pages are faulted in (and, after hb_rt_lock_memory_on_fault, locked) before they are needed. */
void hb_rt_prefault_stack(size_t bytes);
/* The soft RLIMIT_RTPRIO; UINT64_MAX when unlimited. */
int hb_rt_priority_limit(uint64_t *soft_limit);
/* Bytes the malloc heap has handed out and not had back, over every arena (mallinfo2's uordblks +
 * hblkhd): beside the resident size it tells a leak (this grows) from freed pages kept (it does not). */
uint64_t hb_malloc_heap_in_use(void);
/* Caps the arenas malloc may create (M_ARENA_MAX) for threads that allocate at once; threads
 * beyond them share. Arenas already made stay. 0, or EINVAL where the allocator refuses. */
int hb_malloc_limit_arenas(int count);
/* The arenas malloc has made so far, the main one included (from malloc_info); -1 on failure. */
int hb_malloc_arena_count(void);

/* ---------------------------------------------------------------- Interruptible absolute sleep */

/* A CLOCK_MONOTONIC timerfd (armed with TFD_TIMER_ABSTIME per wait) plus an eventfd to cut a wait short. */
int hb_deadline_sleeper_open(int *timer_fd, int *wake_fd);
/*
 * Blocks until CLOCK_MONOTONIC reaches `deadline_ns` or until hb_deadline_sleeper_wake; *interrupted
 * is 1 when a wake ended it. A wake sent while nobody waits ends the next wait at once.
 */
int hb_deadline_sleeper_wait(int timer_fd, int wake_fd, int64_t deadline_ns, int *interrupted);
int hb_deadline_sleeper_wake(int wake_fd);
void hb_deadline_sleeper_close(int timer_fd, int wake_fd);

/*
 * The same sleep on a futex word (a zeroed uint32_t of the caller's, one sleeping thread at a time):
 * one system call per sleep, and a wake costs one only when the thread sleeps. Returns 0 or an
 * errno; *interrupted as above, and a wake sent while nobody waits ends the next wait at once.
 */
int hb_wake_word_sleep(uint32_t *word, int64_t deadline_ns, int *interrupted);
void hb_wake_word_interrupt(uint32_t *word);

/* ---------------------------------------------------------------- Stop steps: what stops a chip when no Swift code can run */

/*
 * How one step of a stop table goes to the kernel. The Swift side (ChipStop) picks the protocol from
 * the adapter: I2C_RDWR where the adapter has plain I2C, SMBus commands where it speaks SMBus only.
 */
typedef enum hb_stop_protocol {
    /* One I2C_RDWR transfer with a single write message of `length` (1 or 2) bytes to `address`. */
    HB_STOP_I2C_WRITE = 1,
    /* I2C_SLAVE `address`, then I2C_SMBUS "write byte" of bytes[0] (a TCA9548A's channel select). */
    HB_STOP_SMBUS_WRITE_BYTE = 2,
    /* I2C_SLAVE `address`, then I2C_SMBUS "write byte data": register bytes[0] <- bytes[1]. */
    HB_STOP_SMBUS_WRITE_BYTE_DATA = 3,
    /* Recorded by a recording guardian only: line `address` of the GPIO chip `bus_fd` driven low. */
    HB_STOP_LINE_LOW = 4,
    /* Recorded by a recording guardian only: line `address` driven low through the request `bus_fd`. */
    HB_STOP_HELD_LINE_LOW = 5,
} hb_stop_protocol;

/* One bus operation of a stop table, on the open i2c-dev descriptor `bus_fd`. */
typedef struct hb_stop_step {
    int32_t bus_fd;
    uint16_t address;
    uint8_t protocol;
    uint8_t length;
    uint8_t bytes[2];
} hb_stop_step;

/* Steps per chip: three register writes, behind up to five cascaded multiplexers. */
#define HB_STOP_MAX_CHIP_STEPS 8
/* Chips the crash handler and a guardian can hold. */
#define HB_STOP_MAX_CHIPS 8
/* Enable lines a guardian can hold. */
#define HB_STOP_MAX_LINES HB_STOP_MAX_CHIPS

/*
 * Issues one step with ioctls only, so a signal handler or a forked child may call it. Returns 0 or
 * errno (EINVAL for a step it does not know).
 */
int hb_stop_issue(const hb_stop_step *step);

/* ---------------------------------------------------------------- Emergency stop on fatal signals */

/*
 * Arms the crash handler for one chip: on SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT it issues the
 * chip's `count` steps in order (all on one bus descriptor), then re-raises the signal with its
 * default action. EINVAL for bad arguments (no steps, more than HB_STOP_MAX_CHIP_STEPS, steps on
 * different descriptors), ENOSPC when HB_STOP_MAX_CHIPS chips are armed.
 */
int hb_emergency_arm(const hb_stop_step *steps, size_t count);
/* Forgets every chip armed on `bus_fd` (call before closing it: the number may be reused). */
void hb_emergency_disarm(int bus_fd);
/* Chips currently armed. */
size_t hb_emergency_armed_count(void);

/* ---------------------------------------------------------------- Crash guardian */

/*
 * An enable line the guardian drives low: line `offset` of the GPIO character device `chip_path`.
 * With `request_fd` >= 0 (this process's request of the line, speaking GPIO uAPI `request_uapi`, as
 * hb_gpio_output_request gives them) the guardian keeps a copy of the request and drives the line
 * low through it as soon as this process starts to die; with -1 it can request the line itself only
 * once this process's request is gone, after the kernel has torn the process down.
 */
typedef struct hb_guardian_line {
    const char *chip_path;
    uint32_t offset;
    int32_t request_fd;
    int32_t request_uapi;
} hb_guardian_line;

/* A running guardian: its process, this process's end of the channel and its early warning. */
typedef struct hb_guardian hb_guardian;

/* The guardian's exit statuses. */
#define HB_GUARDIAN_EXIT_DISARMED 0
#define HB_GUARDIAN_EXIT_STOPPED 1
#define HB_GUARDIAN_EXIT_STOP_INCOMPLETE 2

/*
 * Forks the crash guardian (guardian.c explains the design) and starts the thread whose lock warns
 * it early (guardian_sentinel.c). The guardian holds the channel, the bus descriptors of `steps`,
 * each line's GPIO chip device and the line requests given, and nothing else. When this process
 * starts to die without hb_guardian_finish(…, disarm = 1, …) it issues `steps` in order and drives
 * the lines whose requests it holds low; once the process is gone it issues the steps again, drives
 * every line low (through its held request, or by requesting it) and exits. With `record_fd` >= 0
 * (tests) it issues nothing and writes one hb_stop_step per step, and per line one with protocol
 * HB_STOP_HELD_LINE_LOW or HB_STOP_LINE_LOW, to `record_fd`.
 * Returns once the guardian has set itself up (its own session, signals and descriptors). EINVAL for
 * bad arguments; ECHILD when the guardian died before it was set up, ETIMEDOUT when it took longer
 * than 5 s (it is killed and reaped); otherwise the errno of the call that failed (socketpair,
 * opening a GPIO chip: EACCES, fork: EAGAIN).
 */
int hb_guardian_start(const hb_stop_step *steps, size_t step_count, const hb_guardian_line *lines, size_t line_count,
                      int record_fd, hb_guardian **guardian);
/* The guardian's process ID. */
int hb_guardian_pid(const hb_guardian *guardian);
/*
 * Ends the early-warning thread holding its lock, which is how the guardian learns that this process
 * is dying: it issues the steps at once, and again at the end. For tests.
 */
void hb_guardian_abandon_sentinel(hb_guardian *guardian);
/*
 * Ends guarding, reaps the guardian and frees `guardian`. With `disarm` it exits without touching
 * anything; without, it acts as if this process had died. Waits up to `timeout_ms` for it to exit,
 * then kills and reaps it (ETIMEDOUT). *status is its exit status, 128 + the signal that ended it, or
 * -1 when it was reaped elsewhere (SIGCHLD ignored). EPIPE when it was gone before the disarm byte
 * reached it.
 */
int hb_guardian_finish(hb_guardian *guardian, int disarm, int timeout_ms, int *status);

/* ---------------------------------------------------------------- Force feedback (uinput and evdev) */

/* struct ff_envelope. */
typedef struct hb_ff_envelope {
    uint16_t attack_length;
    uint16_t attack_level;
    uint16_t fade_length;
    uint16_t fade_level;
} hb_ff_envelope;

/*
 * struct ff_effect without its union: the fields of the effect's type are meaningful, the rest 0.
 * Custom periodic samples are not carried (uinput cannot pass them either).
 */
typedef struct hb_ff_effect {
    uint16_t type;
    int16_t id;
    uint16_t direction;
    uint16_t trigger_button;
    uint16_t trigger_interval;
    uint16_t length;
    uint16_t delay;
    /* FF_RUMBLE */
    uint16_t strong_magnitude;
    uint16_t weak_magnitude;
    /* FF_PERIODIC */
    uint16_t waveform;
    uint16_t period;
    int16_t magnitude;
    int16_t offset;
    uint16_t phase;
    /* FF_CONSTANT */
    int16_t level;
    /* FF_RAMP */
    int16_t start_level;
    int16_t end_level;
    /* FF_PERIODIC, FF_CONSTANT, FF_RAMP */
    hb_ff_envelope envelope;
} hb_ff_effect;

/* Force-feedback capability bits: bit i stands for code HB_FF_BITS_BASE + i (FF_RUMBLE 0x50 … FF_AUTOCENTER 0x61). */
#define HB_FF_BITS_BASE 0x50

/* What an input device is: name, ids and force-feedback capabilities. */
typedef struct hb_input_info {
    char name[256];
    uint16_t bustype;
    uint16_t vendor;
    uint16_t product;
    uint16_t version;
    /* Whether the device has EV_FF at all. */
    int has_ff;
    uint64_t ff_bits;
    /* EVIOCGEFFECTS: effects the device holds at once. */
    int effects_max;
} hb_input_info;

/* One event read from a device or uinput node; time on the event's clock (CLOCK_MONOTONIC for uinput). */
typedef struct hb_input_event {
    uint16_t type;
    uint16_t code;
    int32_t value;
    int64_t time_ns;
} hb_input_event;

/*
 * Creates a uinput device (/dev/uinput, or `uinput_path` when given) with EV_FF, the FF bits of
 * `ff_bits` and `effects_max` effect slots, named `name` with the given ids. *fd is the uinput
 * descriptor (non-blocking; read requests with hb_uinput_read), *wake_fd an eventfd that ends a
 * hb_uinput_wait early. *failed_step names the ioctl that failed.
 */
int hb_uinput_create(const char *uinput_path, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product,
                     uint16_t version, uint64_t ff_bits, uint32_t effects_max, int *fd, int *wake_fd,
                     const char **failed_step);
/*
 * The same with the device also reporting EV_KEY for `keys` and EV_REL for `axes` (buttons and
 * encoders of the board, sent with hb_uinput_emit): a gamepad with rumble, a knob with detents.
 */
int hb_uinput_create_with_inputs(const char *uinput_path, const char *name, uint16_t bustype, uint16_t vendor,
                                 uint16_t product, uint16_t version, uint64_t ff_bits, uint32_t effects_max,
                                 const uint16_t *keys, size_t key_count, const uint16_t *axes, size_t axis_count,
                                 int *fd, int *wake_fd, const char **failed_step);
/* Writes one event (`type`, `code`, `value`) and an EV_SYN SYN_REPORT to a created device. */
int hb_uinput_emit(int fd, uint16_t type, uint16_t code, int32_t value);
/* The client node of a created device (/dev/input/eventN), from UI_GET_SYSNAME and sysfs. */
int hb_uinput_event_node(int fd, char *path, size_t size);
/* Waits up to `timeout_ns` (< 0: forever) for an event or a wake; *ready is 1 when events wait. */
int hb_uinput_wait(int fd, int wake_fd, int64_t timeout_ns, int *ready);
int hb_uinput_wake(int wake_fd);
/* Reads one event; EAGAIN when none waits. */
int hb_uinput_read(int fd, hb_input_event *event);
/* UI_BEGIN_FF_UPLOAD for `request_id`: the effect and (type 0 when none) the one it replaces. */
int hb_uinput_begin_upload(int fd, uint32_t request_id, hb_ff_effect *effect, hb_ff_effect *old);
/* UI_END_FF_UPLOAD with `retval` (0, or a negative errno for the client). */
int hb_uinput_end_upload(int fd, uint32_t request_id, int32_t retval);
int hb_uinput_begin_erase(int fd, uint32_t request_id, uint32_t *effect_id);
int hb_uinput_end_erase(int fd, uint32_t request_id, int32_t retval);
/* UI_DEV_DESTROY, then closes both descriptors. */
void hb_uinput_destroy(int fd, int wake_fd);

/* Opens an input device node (read-write, or read-only when `writable` is 0), close-on-exec. */
int hb_evdev_open(const char *path, int writable, int *fd);
/* Name, ids, EV_FF, FF bits and EVIOCGEFFECTS of an open device. */
int hb_evdev_info(int fd, hb_input_info *info);
/* EVIOCSFF: uploads `effect`; its id is updated to the slot the kernel chose. */
int hb_evdev_upload(int fd, hb_ff_effect *effect);
/* EVIOCGEFFECTS: effects the device holds at once (ENODEV once it is gone). */
int hb_evdev_effects(int fd, int *effects);
/* EVIOCRMFF. */
int hb_evdev_erase(int fd, int effect_id);
/* Writes one EV_FF event: code = effect id (value = repeat count, 0 stops) or FF_GAIN. */
int hb_evdev_write_ff(int fd, uint16_t code, int32_t value);
void hb_evdev_close(int fd);
/* Opens an input device read-only for its keys, with event times on CLOCK_MONOTONIC (EVIOCSCLOCKID). */
int hb_evdev_open_keys(const char *path, int *fd);
/*
 * Waits up to `timeout_ns` for an EV_KEY press (value 1) or release (0); other events and
 * auto-repeat (2) are skipped. *got is 0 when none came in time. ENODEV once the device is gone.
 */
int hb_evdev_wait_key(int fd, int64_t timeout_ns, uint16_t *code, int32_t *value, int64_t *time_ns, int *got);

#ifdef __cplusplus
}
#endif

#endif
