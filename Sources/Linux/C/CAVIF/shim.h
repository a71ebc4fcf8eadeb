#ifndef WEBPBRIDGE_CAVIF_SHIM_H
#define WEBPBRIDGE_CAVIF_SHIM_H
#include <avif/avif.h>

/// The diagnostics buffers are fixed-size C arrays, which Swift sees as tuples.
static inline const char *webpbridge_avif_decoder_diagnostic(const avifDecoder *decoder) {
    return decoder->diag.error;
}

static inline const char *webpbridge_avif_encoder_diagnostic(const avifEncoder *encoder) {
    return encoder->diag.error;
}
#endif
