/* plot.c — drawing a report's figure with gnuplot.
 *
 * gnuplot runs as a child process; the script, with the data inline as
 * datablocks, goes to its standard input through a pipe, so nothing is left
 * in temporary files.  What gnuplot prints goes to an unlinked temporary
 * file and is shown only when it fails. */
#include "query/query.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *ext(const char *file)
{
	const char *dot = strrchr(file, '.');
	const char *slash = strrchr(file, '/');
	return dot && (!slash || dot > slash) ? dot + 1 : "";
}

int gs_plot_check(const char *file)
{
	/* the name goes into gnuplot's script, where a line break ends the
	 * command: the figure would land under another name */
	for (const char *p = file; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			fprintf(stderr, "gsearch: error: --plot: the file name holds a line break or "
					"another control character, which gnuplot cannot take\n");
			return -1;
		}
	const char *e = ext(file);
	if (!strcmp(e, "png") || !strcmp(e, "svg"))
		return 0;
	fprintf(stderr, "gsearch: error: --plot %s: the file name must end in .png or .svg\n", file);
	return -1;
}

int gs_plot_writable(const char *file)
{
	/* gnuplot cannot tell us: when it cannot open its output it draws to
	 * its standard output instead, and the figure ends up as bytes in the
	 * error report.  So the file is opened here first; one that did not
	 * exist is removed again, so that a query that fails leaves nothing. */
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
	int created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(file, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "gsearch: error: --plot %s: cannot write it: %s\n", file,
			strerror(errno));
		return -1;
	}
	int tty = isatty(fd);
	close(fd);
	if (created)
		unlink(file);
	if (tty) {
		fprintf(stderr, "gsearch: error: --plot %s: is a terminal; a figure is an image "
				"file, not text to show\n", file);
		return -1;
	}
	return 0;
}

void gs_plot_str(struct gs_buf *b, const char *s)
{
	gs_buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			gs_buf_putc(b, '\'');
		if (*s != '\n')
			gs_buf_putc(b, *s);
	}
	gs_buf_putc(b, '\'');
}

int gs_plot_terminal(struct gs_buf *b, const char *file, int w, int h)
{
	if (gs_plot_check(file) < 0)
		return -1;
	if (!strcmp(ext(file), "png"))
		gs_buf_printf(b, "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,11'"
				 " background rgb 'white'\n", w, h);
	else
		gs_buf_printf(b, "set terminal svg size %d,%d noenhanced font 'DejaVu Sans,13'"
				 " background rgb 'white'\n", w, h);
	gs_buf_puts(b, "set output ");
	gs_plot_str(b, file);
	gs_buf_putc(b, '\n');
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* gnuplot's messages, up to the first byte that is not text: its output
 * may hold an image it could not put in the file, and that must not reach
 * a terminal. */
static void show_output(int fd)
{
	char buf[4096];
	ssize_t k;
	int binary = 0, nl = 1;
	lseek(fd, 0, SEEK_SET);
	while (!binary && (k = read(fd, buf, sizeof buf)) > 0) {
		size_t n = 0;
		while (n < (size_t)k) {
			unsigned char c = (unsigned char)buf[n];
			if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f ||
			    (c == 0x89 && (size_t)k - n >= 4 && !memcmp(buf + n + 1, "PNG", 3))) {
				binary = 1;
				break;
			}
			n++;
		}
		fwrite(buf, 1, n, stderr);
		if (n)
			nl = buf[n - 1] == '\n';
	}
	if (binary)
		fprintf(stderr, "%s(gnuplot's binary output left out)\n", nl ? "" : "\n");
}

int gs_plot_run(const char *file, const char *script)
{
	const char *gnuplot = "gnuplot";
	const char *dir = getenv("TMPDIR");
	char *tmpl = gs_xasprintf("%s/gsearch-gnuplot-XXXXXX", dir && *dir ? dir : "/tmp");
	int out = mkstemp(tmpl);
	if (out < 0) {
		fprintf(stderr, "gsearch: error: --plot: cannot make a temporary file %s: %s\n",
			tmpl, strerror(errno));
		free(tmpl);
		return -1;
	}
	unlink(tmpl);
	free(tmpl);
	int p[2];
	if (pipe(p) < 0) {
		fprintf(stderr, "gsearch: error: --plot: %s\n", strerror(errno));
		close(out);
		return -1;
	}
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addclose(&fa, out);
	char *argv[] = { (char *)gnuplot, NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[0]);
	if (rc != 0) {
		close(p[1]);
		close(out);
		if (rc == ENOENT)
			fprintf(stderr, "gsearch: error: --plot needs gnuplot, which is not on PATH "
					"(Debian: apt-get install gnuplot-nox)\n");
		else
			fprintf(stderr, "gsearch: error: --plot: cannot run gnuplot: %s\n",
				strerror(rc));
		return -1;
	}
	/* gnuplot may stop reading early (a script error); its status says so */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	write_all(p[1], script, strlen(script));
	close(p[1]);
	signal(SIGPIPE, old);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "gsearch: error: gnuplot could not draw %s:\n", file);
		show_output(out);
		close(out);
		return -1;
	}
	close(out);
	return 0;
}
