#ifndef WEBPBRIDGE_CTURBOJPEG_SHIM_H
#define WEBPBRIDGE_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

/// TJSCALED is a function-like macro, which Swift cannot call.
static inline int webpbridge_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}
#endif
