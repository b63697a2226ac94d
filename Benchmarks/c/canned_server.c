/* The baseline for the daemon's round trip and throughput: a Unix-socket server that answers each
 * request line with the bytes the daemon itself sent for it (captured by the benchmark first), so
 * both write the same reply. One thread, epoll, non-blocking sockets: the classic echo server.
 *
 *   canned_server SOCKET STATUS_REPLY_FILE STUDENTS_REPLY_FILE
 *
 * A line containing "students" gets the students reply; any other line the status reply. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct connection {
    int fd;
    char in[65536];
    size_t in_length;
    const char *out;     /* reply being written, or NULL */
    size_t out_length;
    size_t out_sent;
};

static char *status_reply, *students_reply;
static size_t status_length, students_length;
static int epoll_fd;

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    *length = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc(*length);
    if (fread(data, 1, *length, file) != *length) { perror(path); exit(1); }
    fclose(file);
    return data;
}

static void close_connection(struct connection *c) {
    close(c->fd);
    free(c);
}

/* Starts the next reply if none is being written and a request is waiting. */
static void next_reply(struct connection *c) {
    if (c->out) return;
    char *newline = memchr(c->in, '\n', c->in_length);
    if (!newline) return;
    size_t line = (size_t)(newline - c->in) + 1;
    int students = memmem(c->in, line, "students", 8) != NULL;
    memmove(c->in, c->in + line, c->in_length - line);
    c->in_length -= line;
    c->out = students ? students_reply : status_reply;
    c->out_length = students ? students_length : status_length;
    c->out_sent = 0;
}

/* Writes as much as the socket takes; returns -1 when the connection died. */
static int flush(struct connection *c) {
    while (c->out) {
        ssize_t sent = write(c->fd, c->out + c->out_sent, c->out_length - c->out_sent);
        if (sent < 0) {
            if (errno == EAGAIN) {
                struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
                epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event);
                return 0;
            }
            return -1;
        }
        c->out_sent += (size_t)sent;
        if (c->out_sent == c->out_length) {
            c->out = NULL;
            next_reply(c);
        }
    }
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s SOCKET STATUS_REPLY STUDENTS_REPLY\n", argv[0]);
        return 64;
    }
    /* A load generator that exits with replies in flight must not kill the server (as NIO does too). */
    signal(SIGPIPE, SIG_IGN);
    status_reply = read_file(argv[2], &status_length);
    students_reply = read_file(argv[3], &students_length);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof(address.sun_path) - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(listener, 4096) != 0) {
        perror("bind");
        return 1;
    }
    epoll_fd = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event events[256];
    for (;;) {
        int count = epoll_wait(epoll_fd, events, 256, -1);
        for (int i = 0; i < count; i++) {
            if (events[i].data.ptr == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    struct connection *c = calloc(1, sizeof(*c));
                    c->fd = fd;
                    struct epoll_event added = {.events = EPOLLIN, .data.ptr = c};
                    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &added);
                }
                continue;
            }
            struct connection *c = events[i].data.ptr;
            if (events[i].events & EPOLLIN) {
                ssize_t got = read(c->fd, c->in + c->in_length, sizeof(c->in) - c->in_length);
                if (got <= 0 && !(got < 0 && errno == EAGAIN)) {
                    close_connection(c);
                    continue;
                }
                if (got > 0) c->in_length += (size_t)got;
                next_reply(c);
            }
            if (flush(c) < 0) close_connection(c);
        }
    }
}
