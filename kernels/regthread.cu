/* regthread.cu — Black-Scholes option pricing, the grid-stride kernel of the
 * CUDA SDK's BlackScholes sample, on which Liang et al., "Register and Thread
 * Structure Optimization for GPUs", searched the joint space of registers per
 * thread (nvcc -maxrregcount), threads per block and blocks per grid.
 *
 * For each option i: stock price S, strike X, years to expiry T; with the
 * riskless rate R and volatility V of the whole batch,
 *
 *   d1 = (ln(S/X) + (R + V^2/2) T) / (V sqrt T),   d2 = d1 - V sqrt T
 *   call = S N(d1) - X e^(-RT) N(d2)
 *   put  = X e^(-RT) (1 - N(d2)) - S (1 - N(d1))
 *
 * N, the cumulative normal distribution, by the polynomial approximation of
 * Abramowitz and Stegun (26.2.17), with the SDK's fast intrinsics.
 *
 * The kernel has no knobs of its own: the register cap is a compiler
 * option, and block and grid sizes are the launch's.  Each thread prices
 * options tid, tid + T, tid + 2T, ... where T = blockDim.x * gridDim.x is the
 * number of threads, so any grid covers any number of options.
 *
 * BlackScholes_naive is the reference: one thread per option, guarded against
 * the end.  It prices an option with the same function as the tuned kernel,
 * so the check is on which options each configuration prices, not on the
 * formula; the register cap changes spilling, never the arithmetic. */

__device__ inline float cndGPU(float d)
{
	const float A1 = 0.31938153f;
	const float A2 = -0.356563782f;
	const float A3 = 1.781477937f;
	const float A4 = -1.821255978f;
	const float A5 = 1.330274429f;
	const float RSQRT2PI = 0.39894228040143267793994605993438f;

	const float K = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
	float cnd = RSQRT2PI * __expf(-0.5f * d * d) *
		    (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
	if (d > 0)
		cnd = 1.0f - cnd;
	return cnd;
}

__device__ inline void BlackScholesBodyGPU(float &CallResult, float &PutResult, float S, float X,
					   float T, float R, float V)
{
	const float sqrtT = __fdividef(1.0f, rsqrtf(T));
	const float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
	const float d2 = d1 - V * sqrtT;
	const float CNDD1 = cndGPU(d1);
	const float CNDD2 = cndGPU(d2);

	/* call and put together */
	const float expRT = __expf(-R * T);
	CallResult = S * CNDD1 - X * expRT * CNDD2;
	PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

extern "C" __global__ void BlackScholesGPU(float *d_CallResult, float *d_PutResult,
					   const float *d_StockPrice, const float *d_OptionStrike,
					   const float *d_OptionYears, float Riskfree,
					   float Volatility, int optN)
{
	const int tid = blockDim.x * blockIdx.x + threadIdx.x;
	const int THREAD_N = blockDim.x * gridDim.x;
	for (int opt = tid; opt < optN; opt += THREAD_N)
		BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt],
				    d_OptionStrike[opt], d_OptionYears[opt], Riskfree, Volatility);
}

extern "C" __global__ void BlackScholes_naive(float *d_CallResult, float *d_PutResult,
					      const float *d_StockPrice,
					      const float *d_OptionStrike,
					      const float *d_OptionYears, float Riskfree,
					      float Volatility, int optN)
{
	const int opt = blockDim.x * blockIdx.x + threadIdx.x;
	if (opt >= optN)
		return;
	BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt],
			    d_OptionStrike[opt], d_OptionYears[opt], Riskfree, Volatility);
}
