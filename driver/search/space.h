/* space.h — the configurations a search strategy chooses among.
 *
 * A search space is a finite list of valid configurations, each a tuple of
 * value indices, one per parameter.  Each parameter keeps its values in their
 * declared order (the order of the space's `param` line, or of a Kernel
 * Tuner cache's tune_params), with a number for each value that has one, so
 * that a strategy can measure distances and step to the adjacent value.  A
 * hash table maps a value-index tuple back to its configuration, which is
 * what neighbourhoods need: a neighbour that violates a constraint is simply
 * not in the table.
 *
 * The space is built from JSON objects {"NAME": value, ...} -- the `params`
 * of a store's config rows and the entries of a Kernel Tuner cache have that
 * shape -- so it depends on neither the space language nor a device.  The
 * space owns everything it points to; gs_sspace_release frees it. */
#ifndef GS_SEARCH_SPACE_H
#define GS_SEARCH_SPACE_H

#include <stddef.h>
#include <stdint.h>

struct json_t;

struct gs_sparam {
	char *name;
	size_t nvalues;
	char **text;  /* each value as Kernel Tuner keys spell it: 32, 1.5, True */
	double *num;  /* the value as a number (True 1), NAN for text */
};

struct gs_sspace {
	size_t n, nparams;
	struct gs_sparam *params;
	uint16_t *vi;     /* n * nparams value indices, configuration-major */
	char **key;       /* per configuration "32,4,1" (values joined with commas) */
	int64_t *idx;     /* per configuration: its store index, else its position */
	/* open addressing on the tuple's hash: slot -> configuration + 1, 0 empty */
	uint32_t *slots;
	size_t nslots;
};

/* Begin a space with its parameters: `params` is a JSON array
 * [{"name":"TILE","values":[8,16]}, ...] (a sweep's params_json).  0, or -1
 * with the reason in err (a gs_buf). */
struct gs_buf;
int gs_sspace_init(struct gs_sspace *s, struct json_t *params, struct gs_buf *err);
/* Add one configuration from an object holding every parameter by name
 * (other members are ignored); a value missing from the declared list is
 * appended to it.  Returns the configuration's number, -1 when a parameter
 * is missing or not a scalar (reason in err), -2 when the same tuple is
 * already present. */
long gs_sspace_add(struct gs_sspace *s, struct json_t *obj, int64_t idx, struct gs_buf *err);
void gs_sspace_release(struct gs_sspace *s);

/* The configuration with these value indices, or -1. */
long gs_sspace_find(const struct gs_sspace *s, const uint16_t *vi);
static inline const uint16_t *gs_sspace_tuple(const struct gs_sspace *s, size_t cfg)
{
	return s->vi + cfg * s->nparams;
}

/* Neighbourhoods.  HAMMING: every configuration that differs in exactly one
 * parameter; ADJACENT: one step up or down one parameter's value order.
 * Writes at most `cap` configurations to out and returns how many exist
 * (call with a cap of gs_sspace_max_neighbours to get them all). */
enum gs_nbhood { GS_NB_HAMMING, GS_NB_ADJACENT };
size_t gs_sspace_neighbours(const struct gs_sspace *s, size_t cfg, enum gs_nbhood nb, size_t *out,
			    size_t cap);
size_t gs_sspace_max_neighbours(const struct gs_sspace *s);

#endif
