/* crc32.cu: CRC-32 (IEEE, reflected) of many fixed-length messages, one
 * chain a message, its lookup tables in global, constant or shared memory,
 * 1, 4 or 8 bytes a lookup step, MPT messages a thread (held-out space). */
#ifndef MSGLEN
#define MSGLEN 256
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef MPT
#define MPT 1
#endif
#ifndef SLICE
#define SLICE 4
#endif
#ifndef TAB
#define TAB 2
#endif

#define POLY 0xedb88320u
#define CHUNKS (MSGLEN / 16)	/* 16-byte loads a message */

/* Filled by the launch's copy whatever TAB is; read only where TAB is 1. */
__constant__ unsigned ctab[8 * 256];

/* Table k maps a byte to the CRC of that byte followed by k zero bytes, so
 * one step of SLICE bytes is SLICE independent lookups. */
#if TAB == 0
#define LOOK(k, x) __ldg(&tab[(k) * 256 + (x)])
#elif TAB == 1
#define LOOK(k, x) ctab[(k) * 256 + (x)]
#else
#define LOOK(k, x) st[(k) * 256 + (x)]
#endif

/* Four bytes at once (SLICE 4), or one at a time (SLICE 1): the word is
 * folded into the CRC first, so each byte step only needs its low byte. */
#if SLICE == 4
#define WORD(c, w)                                                              \
	do {                                                                    \
		unsigned v_ = (c) ^ (w);                                        \
		(c) = LOOK(3, v_ & 255) ^ LOOK(2, (v_ >> 8) & 255) ^           \
		      LOOK(1, (v_ >> 16) & 255) ^ LOOK(0, v_ >> 24);           \
	} while (0)
#else
#define WORD(c, w)                                                              \
	do {                                                                    \
		(c) ^= (w);                                                     \
		(c) = LOOK(0, (c) & 255) ^ ((c) >> 8);                          \
		(c) = LOOK(0, (c) & 255) ^ ((c) >> 8);                          \
		(c) = LOOK(0, (c) & 255) ^ ((c) >> 8);                          \
		(c) = LOOK(0, (c) & 255) ^ ((c) >> 8);                          \
	} while (0)
#endif

/* Eight bytes, the first word's bytes eight to five from the end. */
#define DWORD(c, w0, w1)                                                        \
	do {                                                                    \
		unsigned v_ = (c) ^ (w0);                                       \
		(c) = LOOK(7, v_ & 255) ^ LOOK(6, (v_ >> 8) & 255) ^           \
		      LOOK(5, (v_ >> 16) & 255) ^ LOOK(4, v_ >> 24) ^          \
		      LOOK(3, (w1) & 255) ^ LOOK(2, ((w1) >> 8) & 255) ^       \
		      LOOK(1, ((w1) >> 16) & 255) ^ LOOK(0, (w1) >> 24);       \
	} while (0)

/* Message m is the MSGLEN bytes at msg + m * MSGLEN; thread t of block b
 * takes messages b * TPB * MPT + t + j * TPB (j < MPT), their chains
 * interleaved chunk by chunk. */
extern "C" __global__ void __launch_bounds__(TPB)
crc32(const uint4 *__restrict__ msg, const unsigned *__restrict__ tab, unsigned *__restrict__ crc)
{
#if TAB == 2
	/* Only the tables this slicing uses are staged. */
	__shared__ unsigned st[SLICE * 256];
	for (int e = threadIdx.x; e < SLICE * 256; e += TPB)
		st[e] = tab[e];
	__syncthreads();
#endif
	size_t m0 = (size_t)blockIdx.x * (TPB * MPT) + threadIdx.x;
	unsigned c[MPT];
#pragma unroll
	for (int j = 0; j < MPT; j++)
		c[j] = 0xffffffffu;
#pragma unroll 1
	for (int k = 0; k < CHUNKS; k++) {
		uint4 v[MPT];
#pragma unroll
		for (int j = 0; j < MPT; j++)
			v[j] = msg[(m0 + j * TPB) * CHUNKS + k];
#pragma unroll
		for (int j = 0; j < MPT; j++) {
#if SLICE == 8
			DWORD(c[j], v[j].x, v[j].y);
			DWORD(c[j], v[j].z, v[j].w);
#else
			WORD(c[j], v[j].x);
			WORD(c[j], v[j].y);
			WORD(c[j], v[j].z);
			WORD(c[j], v[j].w);
#endif
		}
	}
#pragma unroll
	for (int j = 0; j < MPT; j++)
		crc[m0 + j * TPB] = ~c[j];
}

/* One thread a message, one bit at a time: no table. */
extern "C" __global__ void crc32_naive(const unsigned char *msg, unsigned *crc, int n)
{
	int m = blockIdx.x * blockDim.x + threadIdx.x;
	if (m >= n)
		return;
	const unsigned char *p = msg + (size_t)m * MSGLEN;
	unsigned c = 0xffffffffu;
	for (int i = 0; i < MSGLEN; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
	}
	crc[m] = ~c;
}
