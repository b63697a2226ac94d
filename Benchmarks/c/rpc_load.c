/* Load for a JSON-RPC-over-Unix-socket server (the daemon, or the canned baseline), one line per
 * request and per reply.
 *
 *   rpc_load latency    SOCKET REQUEST COUNT         one connection, COUNT requests in turn:
 *                                                    prints "p50_us P p99_us P mean_us M"
 *   rpc_load throughput SOCKET REQUEST CONNS SECONDS CONNS connections, each sending its next request
 *                                                    when the last reply arrives: prints "rps R"
 *   rpc_load churn      SOCKET REQUEST COUNT         opens COUNT connections, one request on each,
 *                                                    then closes them all: prints "connections N"
 */
#include <errno.h>
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

static int connect_socket(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, socket_path, sizeof(address.sun_path) - 1);
    /* A full listen backlog answers EAGAIN on Unix sockets: wait for the server to accept. */
    for (int attempt = 0; connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0; attempt++) {
        if (errno != EAGAIN || attempt == 5000) {
            perror("connect");
            exit(2);
        }
        usleep(1000);
    }
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
    size_t seen;   /* bytes of the current reply seen so far */
};

static void throughput(int connections, double seconds) {
    int epoll_fd = epoll_create1(0);
    struct client *clients = calloc((size_t)connections, sizeof(*clients));
    for (int i = 0; i < connections; i++) {
        clients[i].fd = connect_socket();
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &clients[i]};
        epoll_ctl(epoll_fd, EPOLL_CTL_ADD, clients[i].fd, &event);
        if (write(clients[i].fd, request, request_length) != (ssize_t)request_length) exit(1);
    }
    static char buffer[1 << 20];
    long replies = 0;
    double start = now(), end = start + seconds;
    struct epoll_event events[512];
    while (now() < end) {
        int count = epoll_wait(epoll_fd, events, 512, 100);
        for (int i = 0; i < count; i++) {
            struct client *c = events[i].data.ptr;
            ssize_t got = read(c->fd, buffer, sizeof(buffer));
            if (got <= 0) {
                fprintf(stderr, "connection closed\n");
                exit(1);
            }
            /* A reply ends with its only newline: each newline read is one reply. */
            for (ssize_t j = 0; j < got; j++) {
                if (buffer[j] == '\n') {
                    replies++;
                    if (write(c->fd, request, request_length) != (ssize_t)request_length) exit(1);
                }
            }
        }
    }
    printf("rps %.0f\n", (double)replies / (now() - start));
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
        fprintf(stderr, "usage: %s latency|throughput|churn SOCKET REQUEST N [SECONDS]\n", argv[0]);
        return 64;
    }
    socket_path = argv[2];
    request_length = (size_t)snprintf(request, sizeof(request), "%s\n", argv[3]);
    if (strcmp(argv[1], "latency") == 0) latency(atol(argv[4]));
    else if (strcmp(argv[1], "throughput") == 0 && argc >= 6) throughput(atoi(argv[4]), atof(argv[5]));
    else if (strcmp(argv[1], "churn") == 0) churn(atoi(argv[4]));
    else return 64;
    return 0;
}
