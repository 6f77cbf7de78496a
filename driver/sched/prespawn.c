/* prespawn.c — see prespawn.h. */
#define _GNU_SOURCE
#include "sched/prespawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int gs_prespawn(struct gs_prespawned *p, const char *prog, int ordinal)
{
	int in[2], out[2];
	memset(p, 0, sizeof *p);
	/* close-on-exec: a compile server started later must not hold the
	 * worker's stdin open, or the worker would never see it close */
	if (pipe2(in, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawnattr_init(&at);
	/* its own session, as the sweep's other workers: ^C reaches the
	 * supervisor only */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
	char ord[16];
	snprintf(ord, sizeof ord, "%d", ordinal);
	char *argv[] = { (char *)prog, "worker", "--prewarm", ord, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, prog, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(in[0]);
	close(out[1]);
	if (rc != 0) {
		close(in[1]);
		close(out[0]);
		return -1;
	}
	p->pid = pid;
	p->ordinal = ordinal;
	p->in_fd = in[1];
	p->out_fd = out[0];
	return 0;
}

void gs_prespawn_cancel(struct gs_prespawned *p)
{
	if (p->pid <= 0)
		return;
	close(p->in_fd);
	close(p->out_fd);
	int st;
	while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
		;
	memset(p, 0, sizeof *p);
}
