/* isolate.c — compiling in helper processes, one per compile thread.
 *
 * NVRTC serializes the compiles of one process (measured with NVRTC 13.0 on
 * 16 cores: 1 or 16 threads, the process never used more than one core), so
 * threads alone cannot make compiling parallel.  Each compile thread of the
 * libuv pool therefore drives a `gsearch compile-server` child of its own
 * over a pipe: the threads still schedule the work, the processes give the
 * parallelism, and a compiler crash takes down one child, not the sweep.
 * A server is not tied to a thread: a compile takes an idle one, or starts
 * one when none is idle, and gives it back when done.  So the threads of
 * the early compiles (sched/early.h) hand their servers to the sweep's, and
 * a process starts no more servers than it ever runs compiles at once.
 * A server dies with the thread that started it (PR_SET_PDEATHSIG, in
 * `compile-server`): a thread that hands its servers over must outlive
 * their use.
 *
 * Frames on the pipe: a u32 count, then that many (u32 length, bytes)
 * strings, little-endian host order (both ends are the same binary).
 *   request:  name, source, want ("pc": ptx, cubin), nopts, opts..., names...
 *   response: status ("ok", "error", "nvrtc"), log, ptx, cubin, seconds, lowered...
 */
#define _GNU_SOURCE
#include "gen/gen.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/frame.h"
#include "util/util.h"

/* ---- the server (child) side ------------------------------------------------ */

int gs_compile_server(struct gs_nvrtc *n, int in, int out)
{
	/* yield to the device worker when cores are short: its setup and its
	 * measurements are the sweep's critical path, one compile of many is
	 * not */
	errno = 0;
	int prio = getpriority(PRIO_PROCESS, 0);
	if (errno == 0 && prio < 5)
		setpriority(PRIO_PROCESS, 0, 5);
	/* Test hook only (tests/cli/cases/run-compile-server-dies*): with
	 * GSEARCH_TEST_COMPILE_SERVER_DIES=N set, each server kills itself on
	 * its Nth request, as one killed from outside mid-compile would die.
	 * Never set outside the tests. */
	const char *dies = getenv("GSEARCH_TEST_COMPILE_SERVER_DIES");
	long die_at = dies ? strtol(dies, NULL, 10) : 0, served = 0;
	/* Test hook only (tests/cli/cases/run-budget-time-cancels): with
	 * GSEARCH_TEST_COMPILE_DELAY_MS=N set, each compile first waits N ms,
	 * as a large variant's compile would.  Never set outside the tests. */
	const char *delay = getenv("GSEARCH_TEST_COMPILE_DELAY_MS");
	long delay_ms = delay ? strtol(delay, NULL, 10) : 0;
	for (;;) {
		struct gs_frame req;
		if (gs_frame_recv(in, &req) < 0)
			return 0; /* parent closed the pipe: done */
		if (die_at > 0 && ++served == die_at)
			raise(SIGKILL);
		if (delay_ms > 0) {
			struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
		}
		if (req.n < 4) {
			gs_frame_free(&req);
			return -1;
		}
		uint32_t nopts = (uint32_t)strtoul(req.s[3], NULL, 10);
		if (nopts > req.n - 4) {
			gs_frame_free(&req);
			return -1;
		}
		struct gs_compile_in ci = {
			.name = req.s[0],
			.source = req.s[1],
			.opts = (const char *const *)req.s + 4,
			.nopts = nopts,
			.name_exprs = (const char *const *)req.s + 4 + nopts,
			.nnames = req.n - 4 - nopts,
			.want_ptx = strchr(req.s[2], 'p') != NULL,
			.want_cubin = strchr(req.s[2], 'c') != NULL,
		};
		struct gs_compile_out co;
		int rc = gs_nvrtc_compile(n, &ci, &co);
		char secs[32];
		snprintf(secs, sizeof secs, "%.9f", co.seconds);
		size_t nresp = 5 + ci.nnames;
		const char **s = gs_xcalloc(nresp, sizeof(*s));
		size_t *len = gs_xcalloc(nresp, sizeof(*len));
		s[0] = rc < 0 ? "nvrtc" : co.ok ? "ok" : "error";
		s[1] = co.log ? co.log : "";
		s[2] = co.ptx ? co.ptx : "";
		len[2] = co.ptx ? co.ptx_len : 0;
		s[3] = co.cubin ? co.cubin : "";
		len[3] = co.cubin ? co.cubin_len : 0;
		s[4] = secs;
		for (size_t i = 0; i < ci.nnames; i++)
			s[5 + i] = co.lowered && co.lowered[i] ? co.lowered[i] : "";
		for (size_t i = 0; i < nresp; i++)
			if (i != 2 && i != 3)
				len[i] = strlen(s[i]);
		int wr = gs_frame_send(out, s, len, (uint32_t)nresp);
		free(s);
		free(len);
		gs_compile_out_release(&co, ci.nnames);
		gs_frame_free(&req);
		if (wr < 0)
			return -1;
	}
}

/* ---- the client (compile thread) side ---------------------------------------- */

struct server {
	pid_t pid;
	int to, from; /* our ends of the pipes */
};

/* Every server, so that gs_isolate_shutdown can end them all; those not
 * compiling (idle), to be taken by the next compile; how many compile now
 * (busy) and may at once (limit, 0: any number); how many were started. */
static pthread_mutex_t servers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static struct server **servers, **idle;
static size_t nservers, servers_cap, nidle, idle_cap;
static unsigned busy, limit;
static size_t nstarted;
/* gs_isolate_cancel: set, and the pipe's read end readable for good, so
 * that every compile waiting for its server's answer wakes; the pipe is
 * made with the first server, before any compile can wait. */
static int cancelled;
static int cancel_fd[2] = { -1, -1 };

/* Closes the pipes and collects the child: its wait status, 0 if none. */
static int server_close(struct server *s)
{
	int st = 0;
	if (s->to >= 0)
		close(s->to);
	if (s->from >= 0)
		close(s->from);
	s->to = s->from = -1;
	if (s->pid > 0) {
		while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	s->pid = -1;
	return st;
}

static struct server *server_start(char *err, size_t errlen)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return NULL;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return NULL;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	/* the child must not take the terminal's ^C: the supervisor decides */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	char *argv[] = { "gsearch", "compile-server", NULL };
	extern char **environ;
	pid_t pid;
	int rc = posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(in[0]);
	close(out[1]);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start a compile server: %s", strerror(rc));
		close(in[1]);
		close(out[0]);
		return NULL;
	}
	struct server *s = gs_xmalloc(sizeof(*s));
	s->pid = pid;
	s->to = in[1];
	s->from = out[0];
	pthread_mutex_lock(&servers_lock);
	gs_grow(&servers, &servers_cap, nservers + 1, sizeof(*servers));
	servers[nservers++] = s;
	nstarted++;
	pthread_mutex_unlock(&servers_lock);
	return s;
}

/* A server for one compile: an idle one, else a new one once fewer than
 * limit compile; NULL with err set when none starts. */
static struct server *server_take(char *err, size_t errlen)
{
	pthread_mutex_lock(&servers_lock);
	if (cancel_fd[0] < 0 && pipe2(cancel_fd, O_CLOEXEC) < 0)
		cancel_fd[0] = cancel_fd[1] = -1; /* no early end: a compile then finishes */
	for (;;) {
		if (cancelled) {
			pthread_mutex_unlock(&servers_lock);
			snprintf(err, errlen, "cancelled");
			return NULL;
		}
		while (nidle) {
			struct server *s = idle[--nidle];
			if (s->to >= 0) {
				busy++;
				pthread_mutex_unlock(&servers_lock);
				return s;
			}
			/* released (gs_isolate_release): collect it, take another */
			server_close(s);
		}
		if (!limit || busy < limit)
			break;
		pthread_cond_wait(&idle_cv, &servers_lock);
	}
	busy++;
	pthread_mutex_unlock(&servers_lock);
	struct server *s = server_start(err, errlen);
	if (!s) {
		pthread_mutex_lock(&servers_lock);
		busy--;
		pthread_cond_signal(&idle_cv);
		pthread_mutex_unlock(&servers_lock);
	}
	return s;
}

/* Back after its compile: idle unless it died or was stopped. */
static void server_give(struct server *s)
{
	pthread_mutex_lock(&servers_lock);
	busy--;
	if (s->pid > 0) {
		gs_grow(&idle, &idle_cap, nidle + 1, sizeof(*idle));
		idle[nidle++] = s;
	}
	pthread_cond_signal(&idle_cv);
	pthread_mutex_unlock(&servers_lock);
}

void gs_isolate_limit(unsigned n)
{
	pthread_mutex_lock(&servers_lock);
	limit = n;
	pthread_cond_broadcast(&idle_cv);
	pthread_mutex_unlock(&servers_lock);
}

size_t gs_isolate_started(void)
{
	pthread_mutex_lock(&servers_lock);
	size_t n = nstarted;
	pthread_mutex_unlock(&servers_lock);
	return n;
}

static int is_cancelled(void)
{
	pthread_mutex_lock(&servers_lock);
	int c = cancelled;
	pthread_mutex_unlock(&servers_lock);
	return c;
}

enum { REPLY_READY, REPLY_LATE, REPLY_CANCELLED };

/* Waits until fd has something to read (REPLY_READY), timeout_s (> 0)
 * have passed since t0 (REPLY_LATE) or gs_isolate_cancel was called
 * (REPLY_CANCELLED, first of the three). */
static int wait_reply(int fd, double t0, double timeout_s)
{
	for (;;) {
		int ms = -1;
		if (timeout_s > 0) {
			double left = t0 + timeout_s - gs_now();
			if (left <= 0)
				return REPLY_LATE;
			ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
		}
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
				       { .fd = cancel_fd[0], .events = POLLIN } };
		int rc = poll(p, 2, ms);
		if (rc > 0 && (p[1].revents & POLLIN))
			return REPLY_CANCELLED;
		if (rc > 0)
			return REPLY_READY;
		if (rc < 0 && errno != EINTR)
			return REPLY_READY; /* let the read report it */
	}
}

static int compile_on(struct server *mine, const struct gs_compile_in *in,
		      struct gs_compile_out *out, double timeout_s, int *wstatus);

/* One compile on a server taken for it and given back after. */
static int compile_once(const struct gs_compile_in *in, struct gs_compile_out *out,
			double timeout_s, int *wstatus)
{
	memset(out, 0, sizeof(*out));
	char err[256];
	struct server *mine = server_take(err, sizeof err); /* NULL once cancelled */
	if (!mine && is_cancelled()) {
		out->cancelled = 1;
		out->log = gs_xstrdup("compile cancelled");
		return 0;
	}
	if (!mine) {
		out->log = gs_xstrdup(err);
		return -1;
	}
	int rc = compile_on(mine, in, out, timeout_s, wstatus);
	server_give(mine);
	return rc;
}

int gs_nvrtc_compile_isolated(const struct gs_compile_in *in, struct gs_compile_out *out,
			      double timeout_s)
{
	int wstatus = 0;
	double t0 = gs_now();
	int rc = compile_once(in, out, timeout_s, &wstatus);
	/* A server that dies mid-compile was most likely killed from outside
	 * (the OOM killer, a stray kill): the environment's fault, not the
	 * variant's, so the variant goes to a fresh server once more.  Dying
	 * twice, it is still not known to be the variant's: the caller stores
	 * nothing final for it.  A server stopped by gs_isolate_cancel is not
	 * one that died: cancelled, the compile is not tried again. */
	if (rc == 0 && out->server_died && !out->cancelled)
		rc = compile_once(in, out, timeout_s, &wstatus);
	if (rc == 0 && out->server_died) {
		if (WIFSIGNALED(wstatus))
			out->log = gs_xasprintf("the compiler process died twice while compiling this "
						"variant (the second time of signal %d)", WTERMSIG(wstatus));
		else
			out->log = gs_xstrdup("the compiler process died twice while compiling this variant");
		out->seconds = gs_now() - t0;
	}
	return rc;
}

/* The compile on server mine, which is closed when it dies (out->server_died
 * set, no log, *wstatus how it ended) or times out. */
static int compile_on(struct server *mine, const struct gs_compile_in *in,
		      struct gs_compile_out *out, double timeout_s, int *wstatus)
{
	size_t n = 4 + in->nopts + in->nnames;
	const char **s = gs_xcalloc(n, sizeof(*s));
	size_t *len = gs_xcalloc(n, sizeof(*len));
	char nopts[24], want[4];
	snprintf(nopts, sizeof nopts, "%zu", in->nopts);
	snprintf(want, sizeof want, "%s%s", in->want_ptx ? "p" : "", in->want_cubin ? "c" : "");
	s[0] = in->name ? in->name : "kernel.cu";
	s[1] = in->source;
	s[2] = want;
	s[3] = nopts;
	for (size_t i = 0; i < in->nopts; i++)
		s[4 + i] = in->opts[i];
	for (size_t i = 0; i < in->nnames; i++)
		s[4 + in->nopts + i] = in->name_exprs[i];
	for (size_t i = 0; i < n; i++)
		len[i] = strlen(s[i]);
	double t0 = gs_now();
	int rc = gs_frame_send(mine->to, s, len, (uint32_t)n);
	free(s);
	free(len);
	struct gs_frame r = { 0 };
	int w = rc == 0 ? wait_reply(mine->from, t0, timeout_s) : REPLY_READY;
	if (w != REPLY_READY) {
		/* NVRTC has no time limit of its own: a variant that sends it
		 * into an endless template expansion would hold this thread for
		 * good.  Nor can it be told to stop: a cancelled compile ends
		 * the same way.  Its server goes; a later compile starts another. */
		kill(mine->pid, SIGKILL);
		server_close(mine);
		out->ok = 0;
		if (w == REPLY_CANCELLED) {
			out->cancelled = 1;
			out->log = gs_xstrdup("compile cancelled");
		} else {
			out->timed_out = 1;
			out->log = gs_xasprintf("timed out after %g s (--compile-timeout)", timeout_s);
		}
		out->seconds = gs_now() - t0;
		return 0;
	}
	if (rc == 0)
		rc = gs_frame_recv(mine->from, &r);
	if (rc < 0 || r.n != 5 + in->nnames) {
		/* the server died mid-compile; the next compile gets a new one */
		*wstatus = server_close(mine);
		gs_frame_free(&r);
		out->ok = 0;
		out->server_died = 1;
		out->seconds = gs_now() - t0;
		return 0;
	}
	out->ok = !strcmp(r.s[0], "ok");
	out->log = r.s[1];
	r.s[1] = NULL;
	if (r.len[2]) {
		out->ptx = r.s[2];
		out->ptx_len = r.len[2];
		r.s[2] = NULL;
	}
	if (r.len[3]) {
		out->cubin = r.s[3];
		out->cubin_len = r.len[3];
		r.s[3] = NULL;
	}
	out->seconds = strtod(r.s[4], NULL);
	if (in->nnames) {
		out->lowered = gs_xcalloc(in->nnames, sizeof(*out->lowered));
		for (size_t i = 0; i < in->nnames; i++) {
			out->lowered[i] = r.s[5 + i];
			r.s[5 + i] = NULL;
		}
	}
	int nvrtc_failed = !strcmp(r.s[0], "nvrtc");
	gs_frame_free(&r);
	return nvrtc_failed ? -1 : 0;
}

void gs_isolate_release(void)
{
	/* every server sees its end of input now and exits on its own, all at
	 * once; gs_isolate_shutdown then only collects them */
	pthread_mutex_lock(&servers_lock);
	for (size_t i = 0; i < nservers; i++) {
		if (servers[i]->to >= 0)
			close(servers[i]->to);
		servers[i]->to = -1;
	}
	pthread_mutex_unlock(&servers_lock);
}

void gs_isolate_cancel(void)
{
	pthread_mutex_lock(&servers_lock);
	if (!cancelled && cancel_fd[1] >= 0 && write(cancel_fd[1], "x", 1) != 1)
		gs_trace("isolate: the cancellation could not be written");
	cancelled = 1;
	pthread_cond_broadcast(&idle_cv);
	pthread_mutex_unlock(&servers_lock);
}

void gs_isolate_shutdown(void)
{
	gs_isolate_release();
	pthread_mutex_lock(&servers_lock);
	cancelled = 0;
	for (int i = 0; i < 2; i++) {
		if (cancel_fd[i] >= 0)
			close(cancel_fd[i]);
		cancel_fd[i] = -1;
	}
	for (size_t i = 0; i < nservers; i++) {
		server_close(servers[i]);
		free(servers[i]);
	}
	free(servers);
	servers = NULL;
	nservers = servers_cap = 0;
	free(idle);
	idle = NULL;
	nidle = idle_cap = 0;
	busy = 0;
	pthread_mutex_unlock(&servers_lock);
}
