#ifndef WEBPBRIDGE_CGIF_SHIM_H
#define WEBPBRIDGE_CGIF_SHIM_H
#include <gif_lib.h>
#endif
