/*
 * The C reference for `make bench-codecs`: the same three operations the
 * Swift codecs perform, against the same system libraries, so the Swift/C
 * ratio measures only what Swift adds.
 *
 * usage: codecs_bench RUNS FILE.webp... -- FILE.png... [-- FILE.avif...]
 * prints: "<operation> <images> <best seconds> <megapixels>" per operation;
 * with AVIF files also avif-decode (to 8-bit RGBA, one thread) and
 * avif-encode (the PNGs, quality 60 = quantizer 25, speed 6, 4:2:0, one
 * thread: AVIFEncoder's defaults).
 */
#include <avif/avif.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <webp/encode.h>

typedef struct { unsigned char *data; size_t size; } blob;

static blob read_file(const char *path) {
    blob b = {0, 0};
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    fseek(f, 0, SEEK_END);
    b.size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    b.data = malloc(b.size);
    if (fread(b.data, 1, b.size, f) != b.size) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
    fclose(f);
    return b;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* One operation on one file; returns the megapixels it handled. */
typedef double (*operation)(blob);

/* Runs OP over FILES once; returns the seconds it took and sets *MP to the megapixels handled. */
static double timed(operation op, blob *files, int n, double *mp) {
    double start = now();
    *mp = 0;
    for (int i = 0; i < n; i++) *mp += op(files[i]);
    return now() - start;
}

/* Decode PNG to RGBA8, as the encode operations' input; the caller frees it. */
static unsigned char *decode_png(blob b, struct spng_ihdr *ihdr) {
    spng_ctx *ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, b.data, b.size);
    if (spng_get_ihdr(ctx, ihdr)) exit(5);
    size_t out_size;
    spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &out_size);
    unsigned char *rgba = malloc(out_size);
    if (spng_decode_image(ctx, rgba, out_size, SPNG_FMT_RGBA8, 0)) exit(6);
    spng_ctx_free(ctx);
    return rgba;
}

/* Decode WebP to RGBA, as the Swift decoder does (default options). */
static unsigned char *decode_webp(blob b, int *w, int *h) {
    WebPDecoderConfig config;
    WebPInitDecoderConfig(&config);
    if (WebPGetFeatures(b.data, b.size, &config.input) != VP8_STATUS_OK) exit(2);
    *w = config.input.width;
    *h = config.input.height;
    unsigned char *out = malloc((size_t)*w * *h * 4);
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = *w * 4;
    config.output.u.RGBA.size = (size_t)*w * *h * 4;
    if (WebPDecode(b.data, b.size, &config) != VP8_STATUS_OK) exit(3);
    WebPFreeDecBuffer(&config.output);
    return out;
}

static double op_decode(blob file) {
    int w, h;
    free(decode_webp(file, &w, &h));
    return w * (double)h / 1e6;
}

static double op_transcode(blob file) {
    int w, h;
    unsigned char *rgba = decode_webp(file, &w, &h);
    tjhandle tj = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    if (tjCompress2(tj, rgba, w, w * 4, h, TJPF_RGBA, &jpeg, &size, TJSAMP_420, 90, 0) != 0) exit(4);
    tjFree(jpeg);
    tjDestroy(tj);
    free(rgba);
    return w * (double)h / 1e6;
}

static double op_encode(blob file) {
    struct spng_ihdr ihdr;
    unsigned char *rgba = decode_png(file, &ihdr);

    WebPConfig config;
    WebPConfigInit(&config);
    config.quality = 75;
    config.method = 4;
    WebPPicture pic;
    WebPPictureInit(&pic);
    pic.width = ihdr.width;
    pic.height = ihdr.height;
    WebPPictureImportRGBX(&pic, rgba, ihdr.width * 4);
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    pic.writer = WebPMemoryWrite;
    pic.custom_ptr = &writer;
    if (!WebPEncode(&config, &pic)) exit(7);
    WebPMemoryWriterClear(&writer);
    WebPPictureFree(&pic);
    free(rgba);
    return ihdr.width * (double)ihdr.height / 1e6;
}

static double op_avif_decode(blob file) {
    avifDecoder *decoder = avifDecoderCreate();
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    decoder->strictFlags = AVIF_STRICT_DISABLED;
    if (avifDecoderSetIOMemory(decoder, file.data, file.size) != AVIF_RESULT_OK) exit(8);
    if (avifDecoderParse(decoder) != AVIF_RESULT_OK || avifDecoderNextImage(decoder) != AVIF_RESULT_OK) exit(9);
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.depth = 8;
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.rowBytes = rgb.width * 4;
    rgb.pixels = malloc((size_t)rgb.rowBytes * rgb.height);
    if (avifImageYUVToRGB(decoder->image, &rgb) != AVIF_RESULT_OK) exit(10);
    double mp = rgb.width * (double)rgb.height / 1e6;
    free(rgb.pixels);
    avifDecoderDestroy(decoder);
    return mp;
}

static double op_avif_encode(blob file) {
    struct spng_ihdr ihdr;
    unsigned char *rgba = decode_png(file, &ihdr);

    avifImage *image = avifImageCreate(ihdr.width, ihdr.height, 8, AVIF_PIXEL_FORMAT_YUV420);
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.depth = 8;
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.rowBytes = ihdr.width * 4;
    rgb.ignoreAlpha = AVIF_TRUE; /* the Kodak photos are opaque */
    rgb.pixels = rgba;
    if (avifImageRGBToYUV(image, &rgb) != AVIF_RESULT_OK) exit(11);
    avifEncoder *encoder = avifEncoderCreate();
    encoder->maxThreads = 1;
    encoder->speed = 6;
    encoder->minQuantizer = encoder->maxQuantizer = 25;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS;
    avifRWData output = AVIF_DATA_EMPTY;
    if (avifEncoderWrite(encoder, image, &output) != AVIF_RESULT_OK) exit(12);
    avifRWDataFree(&output);
    avifEncoderDestroy(encoder);
    avifImageDestroy(image);
    free(rgba);
    return ihdr.width * (double)ihdr.height / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: codecs_bench RUNS FILE.webp... -- FILE.png...\n"); return 2; }
    int runs = atoi(argv[1]);
    blob webp[256], png[256], avif[256];
    int nw = 0, np = 0, na = 0, after = 0;
    for (int i = 2; i < argc && nw < 256 && np < 256 && na < 256; i++) {
        if (strcmp(argv[i], "--") == 0) { after++; continue; }
        if (after == 0) webp[nw++] = read_file(argv[i]);
        else if (after == 1) png[np++] = read_file(argv[i]);
        else avif[na++] = read_file(argv[i]);
    }
    const char *names[3] = {"decode", "transcode", "encode"};
    operation ops[3] = {op_decode, op_transcode, op_encode};
    for (int o = 0; o < 3; o++) {
        blob *files = o == 2 ? png : webp;
        int n = o == 2 ? np : nw;
        double best = 1e30, mp = 0;
        for (int r = 0; r < runs; r++) {
            double t = timed(ops[o], files, n, &mp);
            if (t < best) best = t;
        }
        printf("%s %d %.6f %.4f\n", names[o], n, best, mp);
    }
    if (na > 0) {
        /* AVIF encodes cost ~0.25 s each: one pass per process, the driver alternates rounds. */
        int encodes = na < np ? na : np;
        double mp = 0, t = timed(op_avif_decode, avif, na, &mp);
        printf("avif-decode %d %.6f %.4f\n", na, t, mp);
        t = timed(op_avif_encode, png, encodes, &mp);
        printf("avif-encode %d %.6f %.4f\n", encodes, t, mp);
    }
    return 0;
}
