#include "cdrivers.h"

#include <kissfft/kiss_fftr.h>
#include <math.h>
#include <stdlib.h>

/* A real forward FFT of one size with its output buffer, so a frame costs no allocation. */
struct hb_fft {
    kiss_fftr_cfg config;
    unsigned int size;
    kiss_fft_cpx *spectrum;
};

hb_fft *hb_fft_create(unsigned int size) {
    /* kiss_fftr handles even sizes only. */
    if (size < 2 || size % 2 != 0 || size > (1u << 24)) return NULL;
    hb_fft *fft = calloc(1, sizeof *fft);
    if (fft == NULL) return NULL;
    fft->config = kiss_fftr_alloc((int)size, 0, NULL, NULL);
    fft->spectrum = malloc((size / 2 + 1) * sizeof(kiss_fft_cpx));
    fft->size = size;
    if (fft->config == NULL || fft->spectrum == NULL) {
        hb_fft_destroy(fft);
        return NULL;
    }
    return fft;
}

void hb_fft_magnitudes(hb_fft *fft, const float *input, float *magnitudes) {
    kiss_fftr(fft->config, input, fft->spectrum);
    for (unsigned int bin = 0; bin <= fft->size / 2; bin++) {
        magnitudes[bin] = hypotf(fft->spectrum[bin].r, fft->spectrum[bin].i);
    }
}

void hb_fft_destroy(hb_fft *fft) {
    if (fft == NULL) return;
    kiss_fftr_free(fft->config);
    free(fft->spectrum);
    free(fft);
}
