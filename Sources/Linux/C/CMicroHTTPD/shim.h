#ifndef WEBPBRIDGE_CMICROHTTPD_SHIM_H
#define WEBPBRIDGE_CMICROHTTPD_SHIM_H

// libmicrohttpd for Swift. Swift cannot call C variadic functions, so the few
// that HTTPServer needs are wrapped here in fixed-signature helpers.

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The MHD_OPTION_URI_LOG_CALLBACK signature: sees the raw request target
/// (before MHD unescapes it) and returns the initial per-request context.
typedef void *(*webpbridge_uri_logger)(void *cls, const char *uri,
                                       struct MHD_Connection *connection);

/// MHD_CONTENT_READER_END_WITH_ERROR, which Swift cannot import (a macro
/// with a cast): a content reader's answer that ends the response with an
/// error, closing the connection.
static const ssize_t webpbridge_content_reader_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

/// Starts a daemon bound to `address` with every callback, the accept
/// policy (`apc`) among them, given the same context pointer. `options`
/// holds the integer options and must end with an MHD_OPTION_END item.
/// Returns NULL when MHD cannot start.
static inline struct MHD_Daemon *
webpbridge_start_daemon(unsigned int flags,
                        const struct sockaddr *address,
                        MHD_AcceptPolicyCallback accept_policy,
                        MHD_AccessHandlerCallback access_handler,
                        MHD_RequestCompletedCallback completed_handler,
                        webpbridge_uri_logger uri_logger,
                        MHD_NotifyConnectionCallback connection_notifier,
                        MHD_LogCallback error_logger,
                        void *context,
                        const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, 0, accept_policy, context,
                            access_handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed_handler, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notifier, context,
                            MHD_OPTION_EXTERNAL_LOGGER, error_logger, context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The port the daemon's listening socket is bound to (0 when unknown).
static inline uint16_t webpbridge_daemon_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon currently holds open.
static inline unsigned int
webpbridge_daemon_current_connections(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *
webpbridge_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The socket of a connection, or -1.
static inline int webpbridge_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The per-socket context set in the MHD_CONNECTION_NOTIFY_STARTED callback.
static inline void *
webpbridge_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif
