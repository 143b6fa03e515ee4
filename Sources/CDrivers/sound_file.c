#include "cdrivers.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <samplerate.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * libsndfile is loaded when a sound file is first read or written, not when the program starts:
 * it brings its codecs (FLAC, Vorbis, Opus, MPEG, LAME) along, about 0.9 MB resident in every
 * process that never touches a sound file (`play` of haptic content, `serve` without sounds;
 * docs/performance.md).
 */
static struct {
    SNDFILE *(*open)(const char *, int, SF_INFO *);
    int (*close)(SNDFILE *);
    int (*error)(SNDFILE *);
    const char *(*strerror)(SNDFILE *);
    const char *(*error_number)(int);
    int (*format_check)(const SF_INFO *);
    sf_count_t (*readf_float)(SNDFILE *, float *, sf_count_t);
    sf_count_t (*writef_float)(SNDFILE *, const float *, sf_count_t);
    sf_count_t (*writef_short)(SNDFILE *, const short *, sf_count_t);
    int loaded;
} sndfile;
static char sndfile_problem[512];
static pthread_once_t sndfile_once = PTHREAD_ONCE_INIT;

static int bind_sndfile(void *library, void **function, const char *name) {
    *function = dlsym(library, name);
    if (*function != NULL) return 1;
    snprintf(sndfile_problem, sizeof sndfile_problem, "libsndfile.so.1 has no %s", name);
    return 0;
}

static void load_sndfile(void) {
    void *library = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(sndfile_problem, sizeof sndfile_problem, "%s (sound files need libsndfile: apt install libsndfile1)", dlerror());
        return;
    }
    sndfile.loaded = bind_sndfile(library, (void **)&sndfile.open, "sf_open") &&
                     bind_sndfile(library, (void **)&sndfile.close, "sf_close") &&
                     bind_sndfile(library, (void **)&sndfile.error, "sf_error") &&
                     bind_sndfile(library, (void **)&sndfile.strerror, "sf_strerror") &&
                     bind_sndfile(library, (void **)&sndfile.error_number, "sf_error_number") &&
                     bind_sndfile(library, (void **)&sndfile.format_check, "sf_format_check") &&
                     bind_sndfile(library, (void **)&sndfile.readf_float, "sf_readf_float") &&
                     bind_sndfile(library, (void **)&sndfile.writef_float, "sf_writef_float") &&
                     bind_sndfile(library, (void **)&sndfile.writef_short, "sf_writef_short");
}

/* 0 once libsndfile is loaded; otherwise HB_SOUND_LIBRARY_MISSING with *message saying why. */
static int need_sndfile(const char **message) {
    pthread_once(&sndfile_once, load_sndfile);
    if (sndfile.loaded) return 0;
    *message = sndfile_problem;
    return HB_SOUND_LIBRARY_MISSING;
}

/*
 * Reports `error` with `text` copied to a per-thread buffer: a system error's text lives in the
 * SNDFILE that sf_close frees.
 */
static int failed(int error, const char *text, const char **message) {
    static _Thread_local char kept[256];
    snprintf(kept, sizeof kept, "%s", text);
    *message = kept;
    return error;
}

int hb_sound_file_read(const char *path, float **samples, unsigned long *frames, unsigned int *channels,
                       unsigned int *rate, const char **message, int *opened) {
    SF_INFO info = {0};
    *opened = 0;
    int missing = need_sndfile(message);
    if (missing != 0) return missing;
    SNDFILE *file = sndfile.open(path, SFM_READ, &info);
    if (file == NULL) {
        int error = sndfile.error(NULL);
        *message = sndfile.strerror(NULL);
        return error != 0 ? error : SF_ERR_UNRECOGNISED_FORMAT;
    }
    *opened = 1;
    if (info.channels <= 0 || info.samplerate <= 0 || info.frames < 0 ||
        (unsigned long long)info.frames > (unsigned long long)(SIZE_MAX / sizeof(float)) / (unsigned long long)info.channels) {
        sndfile.close(file);
        *message = "file too large to decode in memory";
        return HB_SOUND_FILE_TOO_LARGE;
    }
    /* One extra float so an empty file still gets a non-NULL buffer the caller frees the same way. */
    size_t count = (size_t)info.frames * (size_t)info.channels;
    float *buffer = malloc((count + 1) * sizeof(float));
    if (buffer == NULL) {
        sndfile.close(file);
        *message = "out of memory";
        return HB_SOUND_FILE_TOO_LARGE;
    }
    sf_count_t read = sndfile.readf_float(file, buffer, info.frames);
    int error = sndfile.error(file);
    if (error != 0) {
        failed(error, sndfile.strerror(file), message);
        free(buffer);
        sndfile.close(file);
        return error;
    }
    sndfile.close(file);
    *samples = buffer;
    /* A truncated file yields fewer frames than its header claims; keep what decoded. */
    *frames = (unsigned long)(read < 0 ? 0 : read);
    *channels = (unsigned int)info.channels;
    *rate = (unsigned int)info.samplerate;
    return 0;
}

void hb_sound_file_free(float *samples) { free(samples); }

/* 16-bit samples converted per sf_writef_short call: at least one frame of any channel count accepted. */
enum { pcm_chunk_samples = 8192 };

/* round(x × 32768), clipped: the exact inverse of libsndfile reading 16-bit PCM as k / 32768. */
static short pcm16(float sample) {
    float scaled = sample * 32768.0f;
    if (!(scaled > -32768.0f)) return scaled != scaled ? 0 : SHRT_MIN;
    if (scaled >= 32767.0f) return SHRT_MAX;
    return (short)lrintf(scaled);
}

int hb_sound_file_write(const char *path, int container, const float *samples, unsigned long frames,
                        unsigned int channels, unsigned int rate, const char **message) {
    int missing = need_sndfile(message);
    if (missing != 0) return missing;
    SF_INFO info = {0};
    switch (container) {
    case HB_SOUND_FILE_WAV: info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16; break;
    case HB_SOUND_FILE_FLAC: info.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16; break;
    case HB_SOUND_FILE_OGG_VORBIS: info.format = SF_FORMAT_OGG | SF_FORMAT_VORBIS; break;
    case HB_SOUND_FILE_AIFF: info.format = SF_FORMAT_AIFF | SF_FORMAT_PCM_16; break;
    default: return failed(SF_ERR_UNSUPPORTED_ENCODING, "unknown container", message);
    }
    if (channels > pcm_chunk_samples || rate > INT_MAX || frames > (unsigned long)(SIZE_MAX / sizeof(float)) / (channels == 0 ? 1 : channels)) {
        return failed(SF_ERR_UNSUPPORTED_ENCODING, "too many channels, frames or hertz", message);
    }
    info.channels = (int)channels;
    info.samplerate = (int)rate;
    if (!sndfile.format_check(&info)) {
        return failed(SF_ERR_UNSUPPORTED_ENCODING, "libsndfile cannot write this container with these channels and rate", message);
    }
    SNDFILE *file = sndfile.open(path, SFM_WRITE, &info);
    if (file == NULL) {
        int error = sndfile.error(NULL);
        return failed(error != 0 ? error : SF_ERR_SYSTEM, sndfile.strerror(NULL), message);
    }
    sf_count_t written = 0;
    if (container == HB_SOUND_FILE_OGG_VORBIS) {
        /* Vorbis codes floats itself; libsndfile hands them to it unscaled. */
        written = sndfile.writef_float(file, samples, (sf_count_t)frames);
    } else {
        short chunk[pcm_chunk_samples];
        size_t chunk_frames = pcm_chunk_samples / channels;
        for (size_t start = 0; start < frames; start += chunk_frames) {
            size_t count = frames - start < chunk_frames ? frames - start : chunk_frames;
            for (size_t index = 0; index < count * channels; index++) chunk[index] = pcm16(samples[start * channels + index]);
            sf_count_t done = sndfile.writef_short(file, chunk, (sf_count_t)count);
            written += done < 0 ? 0 : done;
            if (done != (sf_count_t)count) break;
        }
    }
    if (written != (sf_count_t)frames) {
        int error = sndfile.error(file);
        int result = failed(error != 0 ? error : SF_ERR_SYSTEM, error != 0 ? sndfile.strerror(file) : "short write", message);
        sndfile.close(file);
        return result;
    }
    /* Closing flushes the codec's last blocks (FLAC frames, Vorbis pages), so it can fail too. */
    int error = sndfile.close(file);
    if (error != 0) return failed(error, sndfile.error_number(error), message);
    return 0;
}

int hb_resample_ratio_is_valid(double ratio) { return src_is_valid_ratio(ratio); }

int hb_resample(const float *input, unsigned long input_frames, unsigned int channels, double ratio,
                float *output, unsigned long output_capacity, unsigned long *output_frames, const char **message) {
    *output_frames = 0;
    if (input_frames > LONG_MAX || output_capacity > LONG_MAX || channels > INT_MAX) {
        *message = "too many frames";
        return 1;
    }
    SRC_DATA data = {
        .data_in = input,
        .data_out = output,
        .input_frames = (long)input_frames,
        .output_frames = (long)output_capacity,
        .end_of_input = 1,
        .src_ratio = ratio,
    };
    int error = src_simple(&data, SRC_SINC_BEST_QUALITY, (int)channels);
    if (error != 0) {
        *message = src_strerror(error);
        return error;
    }
    *output_frames = (unsigned long)data.output_frames_gen;
    return 0;
}

/* Frames read per sf_readf_float call when decoding to mono. */
enum { mono_chunk_frames = 4096 };

int hb_sound_file_read_mono(const char *path, double max_seconds, float **samples, unsigned long *frames,
                            unsigned int *channels, unsigned int *rate, const char **message, int *opened) {
    SF_INFO info = {0};
    *opened = 0;
    *samples = NULL;
    *frames = 0;
    int missing = need_sndfile(message);
    if (missing != 0) return missing;
    SNDFILE *file = sndfile.open(path, SFM_READ, &info);
    if (file == NULL) {
        int error = sndfile.error(NULL);
        return failed(error != 0 ? error : SF_ERR_UNRECOGNISED_FORMAT, sndfile.strerror(NULL), message);
    }
    *opened = 1;
    if (info.channels <= 0 || info.channels > 1024 || info.samplerate <= 0) {
        sndfile.close(file);
        return failed(SF_ERR_MALFORMED_FILE, "the file names no usable channel count or sample rate", message);
    }
    *channels = (unsigned int)info.channels;
    *rate = (unsigned int)info.samplerate;
    double limit = max_seconds * (double)info.samplerate;
    size_t max_frames = limit <= 0 ? 0 : limit >= (double)(SIZE_MAX / sizeof(float) / 2) ? SIZE_MAX / sizeof(float) / 2 : (size_t)limit;
    /* libsndfile bounds a WAV's claimed length by the file's size, so a claim past the limit is real. */
    if (info.frames > 0 && (unsigned long long)info.frames > (unsigned long long)max_frames) {
        sndfile.close(file);
        return failed(HB_SOUND_FILE_TOO_LONG, "longer than the longest sound analysed", message);
    }
    /*
     * The header's frame count is only a hint: a header can claim more frames than the file holds
     * (or an absurd number), so the buffer grows with what is actually decoded, in chunks, and the
     * decode stops at max_frames instead of trusting the claim.
     */
    float *chunk = malloc((size_t)mono_chunk_frames * (size_t)info.channels * sizeof(float));
    size_t capacity = mono_chunk_frames;
    float *mono = malloc(capacity * sizeof(float));
    if (chunk == NULL || mono == NULL) {
        free(chunk);
        free(mono);
        sndfile.close(file);
        return failed(HB_SOUND_FILE_TOO_LARGE, "out of memory", message);
    }
    size_t count = 0;
    int result = 0;
    for (;;) {
        sf_count_t read = sndfile.readf_float(file, chunk, mono_chunk_frames);
        int error = sndfile.error(file);
        if (error != 0) {
            result = failed(error, sndfile.strerror(file), message);
            break;
        }
        if (read <= 0) break;
        if (count + (size_t)read > max_frames) {
            result = failed(HB_SOUND_FILE_TOO_LONG, "longer than the longest sound analysed", message);
            break;
        }
        if (count + (size_t)read > capacity) {
            size_t grown = capacity * 2;
            while (grown < count + (size_t)read) grown *= 2;
            float *larger = realloc(mono, grown * sizeof(float));
            if (larger == NULL) {
                result = failed(HB_SOUND_FILE_TOO_LARGE, "out of memory", message);
                break;
            }
            mono = larger;
            capacity = grown;
        }
        /* The mean of the channels: a sound in one channel only keeps its shape at 1/channels. */
        for (sf_count_t frame = 0; frame < read; frame++) {
            float sum = 0;
            for (int channel = 0; channel < info.channels; channel++) sum += chunk[frame * info.channels + channel];
            mono[count + (size_t)frame] = sum / (float)info.channels;
        }
        count += (size_t)read;
    }
    free(chunk);
    sndfile.close(file);
    if (result != 0) {
        free(mono);
        return result;
    }
    *samples = mono;
    *frames = (unsigned long)count;
    return 0;
}
