/* The baseline for `onthemap status`: the least a program can do to ask onthemapd for its status
 * and print the answer. Connect, send one line, read one line, write it out. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SOCKET\n", argv[0]);
        return 64;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof(address.sun_path) - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        perror("connect");
        return 2;
    }
    static const char request[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}\n";
    if (write(fd, request, sizeof(request) - 1) < 0) return 2;
    static char buffer[65536];
    size_t length = 0;
    for (;;) {
        ssize_t count = read(fd, buffer + length, sizeof(buffer) - length);
        if (count <= 0) break;
        length += (size_t)count;
        if (memchr(buffer, '\n', length)) break;
    }
    fwrite(buffer, 1, length, stdout);
    return 0;
}
