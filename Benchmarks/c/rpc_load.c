/* Load for a JSON-RPC-over-Unix-socket server (the daemon, or the canned baseline), one line per
 * request and per reply.
 *
 *   rpc_load latency    SOCKET REQUEST COUNT         one connection, COUNT requests in turn:
 *                                                    prints "p50_us P p99_us P mean_us M"
 *   rpc_load load       SOCKET REQUEST CONNS SECONDS [RATE]
 *                                                    CONNS connections, each sending its next request
 *                                                    when its last reply arrives (with RATE, no sooner
 *                                                    than 1/RATE s after the last one: RATE requests a
 *                                                    second each), for SECONDS (the first tenth, at
 *                                                    most 1 s, a warm-up): prints "rps R p50_us P
 *                                                    p99_us P max_us M errors E requests N" (N: all
 *                                                    replies, the warm-up's too)
 *   rpc_load churn      SOCKET REQUEST COUNT         opens COUNT connections, one request on each,
 *                                                    then closes them all: prints "connections N"
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *socket_path;
static char request[4096];
static size_t request_length;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A connected socket, or -1 (said on stderr) when the server refused or never accepted in 5 s. */
static int try_connect(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, socket_path, sizeof(address.sun_path) - 1);
    /* A full listen backlog answers EAGAIN on Unix sockets: wait for the server to accept. */
    for (int attempt = 0; connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0; attempt++) {
        if (errno != EAGAIN || attempt == 5000) {
            perror("connect");
            close(fd);
            return -1;
        }
        usleep(1000);
    }
    return fd;
}

static int connect_socket(void) {
    int fd = try_connect();
    if (fd < 0) exit(2);
    return fd;
}

/* Reads until a newline ends the buffer; replies can be megabytes (10,000 students). */
static void read_reply(int fd, char **buffer, size_t *capacity) {
    size_t length = 0;
    for (;;) {
        if (length == *capacity) {
            *capacity *= 2;
            *buffer = realloc(*buffer, *capacity);
        }
        ssize_t got = read(fd, *buffer + length, *capacity - length);
        if (got <= 0) {
            fprintf(stderr, "connection closed mid-reply\n");
            exit(1);
        }
        length += (size_t)got;
        if ((*buffer)[length - 1] == '\n') return;
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void latency(long count) {
    int fd = connect_socket();
    size_t capacity = 1 << 16;
    char *buffer = malloc(capacity);
    double *samples = malloc(sizeof(double) * (size_t)count);
    long warmup = count / 10 + 100;
    for (long i = -warmup; i < count; i++) {
        double start = now();
        if (write(fd, request, request_length) != (ssize_t)request_length) exit(1);
        read_reply(fd, &buffer, &capacity);
        if (i >= 0) samples[i] = (now() - start) * 1e6;
    }
    qsort(samples, (size_t)count, sizeof(double), compare);
    double sum = 0;
    for (long i = 0; i < count; i++) sum += samples[i];
    printf("p50_us %.2f p99_us %.2f mean_us %.2f\n", samples[count / 2], samples[count * 99 / 100], sum / (double)count);
}

struct client {
    int fd;
    double sent;      /* when the request now in flight was written */
    double due;       /* with a rate: when the next request may be written; 0 while one is in flight */
    char head[16];    /* the first bytes of the reply being read */
    size_t head_length;
};

/* A reply is an error when it is not a JSON-RPC result: the daemon sorts its keys, so an error
 * answer begins `{"error":` and a result `{"id":`. */
static int is_error_reply(const struct client *c) {
    return c->head_length == 0 || c->head[0] != '{' ||
           (c->head_length >= 8 && memcmp(c->head, "{\"error\"", 8) == 0);
}

static long errors;
static int epoll_fd;

/* Writes the client's next request: 1 when on the same connection as before. A connection that
 * fails is an error, and is opened again; one that cannot be opened is an error, and stays closed. */
static int send_request(struct client *c) {
    int same = c->fd >= 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (c->fd < 0) {
            c->fd = try_connect();
            if (c->fd < 0) {
                errors++;
                return 0;
            }
            struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
            epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event);
        }
        c->head_length = 0;
        c->sent = now();
        if (write(c->fd, request, request_length) == (ssize_t)request_length) return same;
        errors++;
        close(c->fd);
        c->fd = -1;
        same = 0;
    }
    return 0;
}

/* Closed loop: every connection always has one request in flight. Counts as errors the replies that
 * are errors, connections the server closed or reset, and requests that could not be written; a
 * connection lost is opened again, so the run goes on. */
static void load(int connections, double seconds, double rate) {
    epoll_fd = epoll_create1(0);
    struct client *clients = calloc((size_t)connections, sizeof(*clients));
    size_t capacity = 1 << 20, count = 0;
    double *samples = malloc(sizeof(double) * capacity);
    double max_us = 0;
    double start = now(), end = start + seconds;
    double warm = start + (seconds / 10 < 1 ? seconds / 10 : 1);
    for (int i = 0; i < connections; i++) {
        clients[i].fd = -1;
        /* Paced connections start spread over one period, not all at once. */
        if (rate > 0) clients[i].due = start + (double)i / (connections * rate);
        else send_request(&clients[i]);
    }
    static char buffer[1 << 20];
    long replies = 0, all_replies = 0;
    struct epoll_event events[512];
    while (now() < end) {
        int timeout = 100;
        if (rate > 0) {
            double t = now(), next = end;
            for (int i = 0; i < connections; i++) {
                if (clients[i].due == 0) continue;
                if (clients[i].due <= t) {
                    clients[i].due = 0;
                    send_request(&clients[i]);
                } else if (clients[i].due < next) {
                    next = clients[i].due;
                }
            }
            /* Rounded up, so the wait never spins on the machine's cores; a send a little late is
             * timed from when it was written. */
            timeout = (int)ceil((next - t) * 1000);
            if (timeout > 100) timeout = 100;
        }
        int ready = epoll_wait(epoll_fd, events, 512, timeout);
        for (int i = 0; i < ready; i++) {
            struct client *c = events[i].data.ptr;
            if (c->fd < 0) continue;
            ssize_t got = read(c->fd, buffer, sizeof(buffer));
            if (got < 0 && errno == EAGAIN) continue;
            if (got <= 0) {
                errors++;
                close(c->fd);
                c->fd = -1;
                send_request(c);
                continue;
            }
            /* A reply ends with its only newline. */
            for (ssize_t j = 0; j < got; j++) {
                if (c->head_length < sizeof(c->head)) c->head[c->head_length++] = buffer[j];
                if (buffer[j] != '\n') continue;
                double finished = now();
                all_replies++;
                if (is_error_reply(c)) errors++;
                if (c->sent >= warm) {
                    if (count == capacity) samples = realloc(samples, sizeof(double) * (capacity *= 2));
                    double us = (finished - c->sent) * 1e6;
                    samples[count++] = us;
                    if (us > max_us) max_us = us;
                    replies++;
                }
                if (rate > 0) {
                    c->due = c->sent + 1 / rate;
                    break;
                }
                /* What else this read held was the old connection's. */
                if (!send_request(c)) break;
            }
        }
    }
    double elapsed = now() - warm;
    if (count == 0) {
        printf("rps 0 p50_us 0 p99_us 0 max_us 0 errors %ld requests %ld\n", errors, all_replies);
        return;
    }
    qsort(samples, count, sizeof(double), compare);
    printf("rps %.0f p50_us %.2f p99_us %.2f max_us %.2f errors %ld requests %ld\n", (double)replies / elapsed,
           samples[count / 2], samples[count * 99 / 100], max_us, errors, all_replies);
}

static void churn(int count) {
    int *fds = malloc(sizeof(int) * (size_t)count);
    size_t capacity = 1 << 16;
    char *buffer = malloc(capacity);
    for (int i = 0; i < count; i++) {
        fds[i] = connect_socket();
        if (write(fds[i], request, request_length) != (ssize_t)request_length) exit(1);
    }
    for (int i = 0; i < count; i++) read_reply(fds[i], &buffer, &capacity);
    for (int i = 0; i < count; i++) close(fds[i]);
    printf("connections %d\n", count);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s latency|load|churn SOCKET REQUEST N [SECONDS [RATE]]\n", argv[0]);
        return 64;
    }
    /* A server that closes a connection is counted, not a reason to die of SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    socket_path = argv[2];
    request_length = (size_t)snprintf(request, sizeof(request), "%s\n", argv[3]);
    if (strcmp(argv[1], "latency") == 0) latency(atol(argv[4]));
    else if (strcmp(argv[1], "load") == 0 && argc >= 6) load(atoi(argv[4]), atof(argv[5]), argc >= 7 ? atof(argv[6]) : 0);
    else if (strcmp(argv[1], "churn") == 0) churn(atoi(argv[4]));
    else return 64;
    return 0;
}
