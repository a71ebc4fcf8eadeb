#ifndef WEBPBRIDGE_CWEBP_SHIM_H
#define WEBPBRIDGE_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#endif
