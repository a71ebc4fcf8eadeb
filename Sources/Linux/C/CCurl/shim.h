#ifndef WEBPBRIDGE_CCURL_SHIM_H
#define WEBPBRIDGE_CCURL_SHIM_H

// libcurl for Swift. curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt are variadic, which Swift cannot call, so each argument
// type the loader needs gets a fixed-signature wrapper here.

#include <stddef.h>
#include <curl/curl.h>

/// The CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION signature.
typedef size_t (*webpbridge_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

/// curl_easy_setopt for options that take a long.
static inline CURLcode webpbridge_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a C string (libcurl copies it).
static inline CURLcode webpbridge_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a pointer (CURLOPT_ERRORBUFFER,
/// CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_PRIVATE, CURLOPT_HTTPHEADER).
static inline CURLcode webpbridge_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a curl_off_t (CURLOPT_MAXFILESIZE_LARGE).
static inline CURLcode webpbridge_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode webpbridge_curl_easy_setopt_function(CURL *handle, CURLoption option,
                                                            webpbridge_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_PREREQFUNCTION (libcurl 7.80 and later).
static inline CURLcode webpbridge_curl_easy_setopt_prereq(CURL *handle, curl_prereq_callback value) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

/// curl_easy_getinfo for CURLINFO_ACTIVESOCKET.
static inline CURLcode webpbridge_curl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_*_LONG items.
static inline CURLcode webpbridge_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_*_STRING items; the string belongs to the handle.
static inline CURLcode webpbridge_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_multi_setopt for options that take a long.
static inline CURLMcode webpbridge_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// The CURLMsg's result when msg == CURLMSG_DONE (a union member Swift sees awkwardly).
static inline CURLcode webpbridge_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
