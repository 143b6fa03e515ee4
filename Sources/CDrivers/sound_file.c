#include "cdrivers.h"

#include <limits.h>
#include <samplerate.h>
#include <sndfile.h>
#include <stdlib.h>

int hb_sound_file_read(const char *path, float **samples, unsigned long *frames, unsigned int *channels,
                       unsigned int *rate, const char **message, int *opened) {
    SF_INFO info = {0};
    *opened = 0;
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (file == NULL) {
        int error = sf_error(NULL);
        *message = sf_strerror(NULL);
        return error != 0 ? error : SF_ERR_UNRECOGNISED_FORMAT;
    }
    *opened = 1;
    if (info.channels <= 0 || info.samplerate <= 0 || info.frames < 0 ||
        (unsigned long long)info.frames > (unsigned long long)(SIZE_MAX / sizeof(float)) / (unsigned long long)info.channels) {
        sf_close(file);
        *message = "file too large to decode in memory";
        return HB_SOUND_FILE_TOO_LARGE;
    }
    /* One extra float so an empty file still gets a non-NULL buffer the caller frees the same way. */
    size_t count = (size_t)info.frames * (size_t)info.channels;
    float *buffer = malloc((count + 1) * sizeof(float));
    if (buffer == NULL) {
        sf_close(file);
        *message = "out of memory";
        return HB_SOUND_FILE_TOO_LARGE;
    }
    sf_count_t read = sf_readf_float(file, buffer, info.frames);
    int error = sf_error(file);
    if (error != 0) {
        *message = sf_strerror(file);
        free(buffer);
        sf_close(file);
        return error;
    }
    sf_close(file);
    *samples = buffer;
    /* A truncated file yields fewer frames than its header claims; keep what decoded. */
    *frames = (unsigned long)(read < 0 ? 0 : read);
    *channels = (unsigned int)info.channels;
    *rate = (unsigned int)info.samplerate;
    return 0;
}

void hb_sound_file_free(float *samples) { free(samples); }

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
