#include "cdrivers.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct hb_pcm {
    snd_pcm_t *pcm;
    unsigned int channels;
};

/* ALSA returns negative errno values; the shim's contract is a positive one. */
static int positive(int alsa_result) { return alsa_result < 0 ? -alsa_result : EIO; }

static int configure_hardware(snd_pcm_t *pcm, unsigned int rate, unsigned int channels,
                              unsigned long *period_frames, unsigned long *buffer_frames, const char **failed_setting) {
    snd_pcm_hw_params_t *hw;
    int result = snd_pcm_hw_params_malloc(&hw);
    if (result < 0) {
        *failed_setting = "hardware parameters";
        return positive(result);
    }
    snd_pcm_uframes_t period = *period_frames;
    /* A buffer of four periods: room to absorb scheduling jitter without adding much latency. */
    snd_pcm_uframes_t buffer;
    int dir = 0;
    if ((result = snd_pcm_hw_params_any(pcm, hw)) < 0) {
        *failed_setting = "hardware parameters";
    } else if ((result = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0) {
        *failed_setting = "interleaved access";
    } else if ((result = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0) {
        *failed_setting = "format S16_LE";
    } else if ((result = snd_pcm_hw_params_set_channels(pcm, hw, channels)) < 0) {
        *failed_setting = "channels";
    } else if ((result = snd_pcm_hw_params_set_rate(pcm, hw, rate, 0)) < 0) {
        *failed_setting = "rate";
    } else if ((result = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir)) < 0) {
        *failed_setting = "period size";
    } else if ((buffer = period * 4, result = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer)) < 0) {
        *failed_setting = "buffer size";
    } else if ((result = snd_pcm_hw_params(pcm, hw)) < 0) {
        *failed_setting = "hardware parameters";
    } else if ((result = snd_pcm_hw_params_get_period_size(hw, &period, &dir)) < 0) {
        *failed_setting = "period size";
    } else if ((result = snd_pcm_hw_params_get_buffer_size(hw, &buffer)) < 0) {
        *failed_setting = "buffer size";
    }
    snd_pcm_hw_params_free(hw);
    if (result < 0) return positive(result);
    *period_frames = period;
    *buffer_frames = buffer;
    return 0;
}

/* Start after one full period rather than on the first frame, so a stream does not underrun at once. */
static int configure_software(snd_pcm_t *pcm, snd_pcm_uframes_t period_frames, const char **failed_setting) {
    snd_pcm_sw_params_t *sw;
    int result = snd_pcm_sw_params_malloc(&sw);
    if (result < 0) {
        *failed_setting = "software parameters";
        return positive(result);
    }
    if ((result = snd_pcm_sw_params_current(pcm, sw)) < 0 ||
        (result = snd_pcm_sw_params_set_start_threshold(pcm, sw, period_frames)) < 0) {
        *failed_setting = "start threshold";
    } else {
        /*
         * Timestamp each position update on CLOCK_MONOTONIC, so a status says when its delay was
         * true (hb_pcm_delay_at). Best effort: a device or plugin that cannot just reports none.
         */
        if (snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) == 0) {
            (void)snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
        }
        if ((result = snd_pcm_sw_params(pcm, sw)) < 0) *failed_setting = "software parameters";
    }
    snd_pcm_sw_params_free(sw);
    return result < 0 ? positive(result) : 0;
}

/*
 * alsa-lib prints its diagnostics ("Unknown PCM …", a dshare's "destination channel specified in
 * bindings is already used") to stderr through a process-wide handler. Opening swaps in one that
 * keeps the first message of the open instead, for the caller's error, and puts back whatever was
 * there; the lock keeps two opens from restoring each other's handler or sharing the message.
 */
static pthread_mutex_t alsa_message_handler_lock = PTHREAD_MUTEX_INITIALIZER;
/* The first message of the open in progress (guarded by the lock); later ones are its context. */
static char first_alsa_message[160];
/* The thread opening: another thread's message meanwhile (a stream's recovery) is not its reason. */
static pthread_t opening_thread;

static void keep_first_alsa_message(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    if (!pthread_equal(pthread_self(), opening_thread) || first_alsa_message[0] != '\0') return;
    va_list arguments;
    va_start(arguments, fmt);
    (void)vsnprintf(first_alsa_message, sizeof first_alsa_message, fmt, arguments);
    va_end(arguments);
}

static int open_configured(const char *device, unsigned int rate, unsigned int channels,
                           unsigned long *period_frames, unsigned long *buffer_frames, hb_pcm **pcm,
                           const char **failed_setting);

int hb_pcm_open(const char *device, unsigned int rate, unsigned int channels, unsigned long *period_frames,
                unsigned long *buffer_frames, hb_pcm **pcm, const char **failed_setting, char *reason,
                size_t reason_size) {
    pthread_mutex_lock(&alsa_message_handler_lock);
    first_alsa_message[0] = '\0';
    opening_thread = pthread_self();
    snd_lib_error_handler_t previous = snd_lib_error;
    snd_lib_error_set_handler(keep_first_alsa_message);
    int error = open_configured(device, rate, channels, period_frames, buffer_frames, pcm, failed_setting);
    snd_lib_error_set_handler(previous);
    if (reason_size > 0) (void)snprintf(reason, reason_size, "%s", error == 0 ? "" : first_alsa_message);
    pthread_mutex_unlock(&alsa_message_handler_lock);
    return error;
}

static int open_configured(const char *device, unsigned int rate, unsigned int channels,
                           unsigned long *period_frames, unsigned long *buffer_frames, hb_pcm **pcm,
                           const char **failed_setting) {
    *failed_setting = NULL;
    if (channels == 0 || rate == 0 || *period_frames == 0) {
        *failed_setting = channels == 0 ? "channels" : rate == 0 ? "rate" : "period size";
        return EINVAL;
    }
    snd_pcm_t *handle;
    int result = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0);
    if (result < 0) return positive(result);

    int error = configure_hardware(handle, rate, channels, period_frames, buffer_frames, failed_setting);
    if (error == 0) error = configure_software(handle, *period_frames, failed_setting);
    if (error == 0 && (result = snd_pcm_prepare(handle)) < 0) {
        *failed_setting = "prepare";
        error = positive(result);
    }
    struct hb_pcm *stream = error == 0 ? malloc(sizeof *stream) : NULL;
    if (error == 0 && stream == NULL) {
        *failed_setting = "memory";
        error = ENOMEM;
    }
    if (error != 0) {
        snd_pcm_close(handle);
        return error;
    }
    stream->pcm = handle;
    stream->channels = channels;
    *pcm = stream;
    return 0;
}

int hb_pcm_write(hb_pcm *pcm, const int16_t *samples, unsigned long frames, unsigned long *written,
                 unsigned int *recoveries) {
    *written = 0;
    *recoveries = 0;
    while (*written < frames) {
        snd_pcm_sframes_t result =
            snd_pcm_writei(pcm->pcm, samples + (size_t)*written * pcm->channels, frames - *written);
        if (result == -EAGAIN || result == -EINTR) continue;
        if (result < 0) {
            /* EPIPE (underrun) and ESTRPIPE (suspend) are recoverable; anything else comes back. */
            int recovered = snd_pcm_recover(pcm->pcm, (int)result, 1);
            if (recovered < 0) return positive(recovered);
            *recoveries += 1;
            continue;
        }
        *written += (unsigned long)result;
    }
    return 0;
}

int hb_pcm_delay(hb_pcm *pcm, long *frames) {
    snd_pcm_sframes_t delay;
    int result = snd_pcm_delay(pcm->pcm, &delay);
    /* After an underrun nothing is queued; the next write recovers the stream. */
    if (result == -EPIPE) delay = 0;
    else if (result < 0) return positive(result);
    *frames = delay < 0 ? 0 : (long)delay;
    return 0;
}

int hb_pcm_delay_at(hb_pcm *pcm, long *frames, int64_t *measured_ns) {
    snd_pcm_status_t *status;
    snd_pcm_status_alloca(&status);
    int result = snd_pcm_status(pcm->pcm, status);
    if (result < 0) return positive(result);
    *measured_ns = 0;
    if (snd_pcm_status_get_state(status) != SND_PCM_STATE_RUNNING) {
        /* Stopped, prepared or after an underrun: what is queued has not started to play. */
        snd_pcm_sframes_t delay = snd_pcm_status_get_delay(status);
        *frames = snd_pcm_status_get_state(status) == SND_PCM_STATE_XRUN || delay < 0 ? 0 : (long)delay;
        return 0;
    }
    /* With SND_PCM_TSTAMP_ENABLE the status timestamp is that of the last position update, and the
     * delay is as of that update. */
    snd_htimestamp_t stamp;
    snd_pcm_status_get_htstamp(status, &stamp);
    snd_pcm_sframes_t delay = snd_pcm_status_get_delay(status);
    *frames = delay < 0 ? 0 : (long)delay;
    *measured_ns = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec;
    return 0;
}

int hb_pcm_drain(hb_pcm *pcm) {
    int result = snd_pcm_drain(pcm->pcm);
    if (result < 0 && result != -EPIPE) return positive(result);
    result = snd_pcm_prepare(pcm->pcm);
    return result < 0 ? positive(result) : 0;
}

int hb_pcm_drop(hb_pcm *pcm) {
    int result = snd_pcm_drop(pcm->pcm);
    if (result < 0) return positive(result);
    result = snd_pcm_prepare(pcm->pcm);
    return result < 0 ? positive(result) : 0;
}

void hb_pcm_close(hb_pcm *pcm) {
    if (pcm == NULL) return;
    snd_pcm_close(pcm->pcm);
    free(pcm);
}
