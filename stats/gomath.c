/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Go-bit-exact math: ports of Go's exp (amd64 FMA assembly), log, integer
 * Lgamma, Erfc, go-moremath's Choose and GeoMean, and Go's float parsing
 * and formatting rules.  See spec §12 for why glibc is not good enough.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/gomath.h"

static double
bits_to_double(uint64_t b)
{
	double	d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static uint64_t
double_to_bits(double d)
{
	uint64_t	b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

double
go_exp(double x)
{
	const double	log2e = 1.4426950408889634073599246810018920;
	const double	ln2u = 0.69314718055966295651160180568695068359375;
	const double	ln2l =
	    0.28235290563031577122588448175013436025525412068e-12;
	const double	overflow = 7.09782712893384e+02;
	double		kx, fk, t, p;
	int32_t		k, bx;

	if (isnan(x) || x == INFINITY)
		return x;
	if (x == -INFINITY)
		return 0;
	if (x > overflow)
		return INFINITY;

	/*
	 * CVTSD2SL: round to nearest even; out of range gives the
	 * "integer indefinite" value INT32_MIN.
	 */
	kx = x * log2e;
	if (kx < -2147483648.0)
		k = INT32_MIN;
	else
		k = (int32_t)lrint(kx);
	fk = (double)k;

	t = fma(-fk, ln2u, x);
	t = fma(-fk, ln2l, t);
	t *= 0.0625;
	p = 2.4801587301587301587e-5;
	p = fma(p, t, 1.9841269841269841270e-4);
	p = fma(p, t, 1.3888888888888888889e-3);
	p = fma(p, t, 8.3333333333333333333e-3);
	p = fma(p, t, 4.1666666666666666667e-2);
	p = fma(p, t, 1.6666666666666666667e-1);
	p = fma(p, t, 0.5);
	p = fma(p, t, 1.0);
	t = t * p;
	t = t * (t + 2.0);
	t = t * (t + 2.0);
	t = t * (t + 2.0);
	t = fma(t, t + 2.0, 1.0);

	/* 32-bit add as in the assembly (k may be INT32_MIN). */
	bx = (int32_t)((uint32_t)k + 1023u);
	if (bx <= 0) {
		if (bx < -52)
			return 0;
		t *= bits_to_double((uint64_t)(bx + 1022) << 52);
		return t * bits_to_double((uint64_t)1 << 52);
	}
	if (bx >= 0x7ff)
		return INFINITY;
	return t * bits_to_double((uint64_t)bx << 52);
}

double
go_log(double x)
{
	const double	ln2hi = 6.93147180369123816490e-01;
	const double	ln2lo = 1.90821492927058770002e-10;
	const double	l1 = 6.666666666666735130e-01;
	const double	l2 = 3.999999999940941908e-01;
	const double	l3 = 2.857142874366239149e-01;
	const double	l4 = 2.222219843214978396e-01;
	const double	l5 = 1.818357216161805012e-01;
	const double	l6 = 1.531383769920937332e-01;
	const double	l7 = 1.479819860511658591e-01;
	double		f1, f, k, s, s2, s4, t1, t2, r, hfsq;
	int		ki;

	if (isnan(x) || x == INFINITY)
		return x;
	if (x < 0)
		return NAN;
	if (x == 0)
		return -INFINITY;

	if (x < DBL_MIN) {
		/*
		 * Go's amd64 assembly takes the exponent and mantissa bits
		 * as they are (f1 = 0.5 | mantissa, k = exponent - 1022) and
		 * does not normalise a subnormal x first.
		 */
		uint64_t	bits;

		memcpy(&bits, &x, sizeof(bits));
		bits = (bits & 0x000FFFFFFFFFFFFFULL) | 0x3FE0000000000000ULL;
		memcpy(&f1, &bits, sizeof(f1));
		ki = -1022;
	} else
		f1 = frexp(x, &ki);
	if (f1 < M_SQRT2 / 2) {
		f1 *= 2;
		ki--;
	}
	f = f1 - 1;
	k = (double)ki;

	s = f / (2 + f);
	s2 = s * s;
	s4 = s2 * s2;
	t1 = s2 * (l1 + s4 * (l3 + s4 * (l5 + s4 * l7)));
	t2 = s4 * (l2 + s4 * (l4 + s4 * l6));
	r = t1 + t2;
	hfsq = 0.5 * f * f;
	return k * ln2hi - ((hfsq - (s * (hfsq + r) + k * ln2lo)) - f);
}

double
go_lgamma_int(double x)
{
	const double	w0 = 4.18938533204672725052e-01;
	const double	w1 = 8.33333333333329678849e-02;
	const double	w2 = -2.77777777728775536470e-03;
	const double	w3 = 7.93650558643019558500e-04;
	const double	w4 = -5.95187557450339963135e-04;
	const double	w5 = 8.36339918996282139126e-04;
	const double	w6 = -1.63092934096575273989e-03;
	double		t, z, y, w;
	int		i;

	if (!(x >= 1) || x != floor(x) || isinf(x))
		return NAN;
	if (x == 1 || x == 2)
		return 0;
	if (x < 8) {
		/* Lgamma(2+y) with y = 0: 0 + Log((x-1)!) */
		i = (int)x;
		z = 1.0;
		y = 0;
		switch (i) {
		case 7:
			z *= (y + 6);
			/* FALLTHROUGH */
		case 6:
			z *= (y + 5);
			/* FALLTHROUGH */
		case 5:
			z *= (y + 4);
			/* FALLTHROUGH */
		case 4:
			z *= (y + 3);
			/* FALLTHROUGH */
		default:
			z *= (y + 2);
		}
		return 0 + go_log(z);
	}
	t = go_log(x);
	z = 1 / x;
	y = z * z;
	w = w0 + z * (w1 + y * (w2 + y * (w3 + y * (w4 + y * (w5 + y * w6)))));
	return (x - 0.5) * (t - 1) + w;
}

double
go_erfc(double x)
{
	const double	erx = 8.45062911510467529297e-01;
	const double	pp0 = 1.28379167095512558561e-01;
	const double	pp1 = -3.25042107247001499370e-01;
	const double	pp2 = -2.84817495755985104766e-02;
	const double	pp3 = -5.77027029648944159157e-03;
	const double	pp4 = -2.37630166566501626084e-05;
	const double	qq1 = 3.97917223959155352819e-01;
	const double	qq2 = 6.50222499887672944485e-02;
	const double	qq3 = 5.08130628187576562776e-03;
	const double	qq4 = 1.32494738004321644526e-04;
	const double	qq5 = -3.96022827877536812320e-06;
	const double	pa0 = -2.36211856075265944077e-03;
	const double	pa1 = 4.14856118683748331666e-01;
	const double	pa2 = -3.72207876035701323847e-01;
	const double	pa3 = 3.18346619901161753674e-01;
	const double	pa4 = -1.10894694282396677476e-01;
	const double	pa5 = 3.54783043256182359371e-02;
	const double	pa6 = -2.16637559486879084300e-03;
	const double	qa1 = 1.06420880400844228286e-01;
	const double	qa2 = 5.40397917702171048937e-01;
	const double	qa3 = 7.18286544141962662868e-02;
	const double	qa4 = 1.26171219808761642112e-01;
	const double	qa5 = 1.36370839120290507362e-02;
	const double	qa6 = 1.19844998467991074170e-02;
	const double	ra0 = -9.86494403484714822705e-03;
	const double	ra1 = -6.93858572707181764372e-01;
	const double	ra2 = -1.05586262253232909814e+01;
	const double	ra3 = -6.23753324503260060396e+01;
	const double	ra4 = -1.62396669462573470355e+02;
	const double	ra5 = -1.84605092906711035994e+02;
	const double	ra6 = -8.12874355063065934246e+01;
	const double	ra7 = -9.81432934416914548592e+00;
	const double	sa1 = 1.96512716674392571292e+01;
	const double	sa2 = 1.37657754143519042600e+02;
	const double	sa3 = 4.34565877475229228821e+02;
	const double	sa4 = 6.45387271733267880336e+02;
	const double	sa5 = 4.29008140027567833386e+02;
	const double	sa6 = 1.08635005541779435134e+02;
	const double	sa7 = 6.57024977031928170135e+00;
	const double	sa8 = -6.04244152148580987438e-02;
	const double	rb0 = -9.86494292470009928597e-03;
	const double	rb1 = -7.99283237680523006574e-01;
	const double	rb2 = -1.77579549177547519889e+01;
	const double	rb3 = -1.60636384855821916062e+02;
	const double	rb4 = -6.37566443368389627722e+02;
	const double	rb5 = -1.02509513161107724954e+03;
	const double	rb6 = -4.83519191608651397019e+02;
	const double	sb1 = 3.03380607434824582924e+01;
	const double	sb2 = 3.25792512996573918826e+02;
	const double	sb3 = 1.53672958608443695994e+03;
	const double	sb4 = 3.19985821950859553908e+03;
	const double	sb5 = 2.55305040643316442583e+03;
	const double	sb6 = 4.74528541206955367215e+02;
	const double	sb7 = -2.24409524465858183362e+01;
	/* Go's untyped constant 1/0.35, i.e. 20/7 correctly rounded. */
	const double	inv035 = 20.0 / 7.0;
	const double	tiny = 1.0 / 72057594037927936.0;	/* 2**-56 */
	double		z, r, s, y, temp, pv, qv, rv, sv;
	int		sign = 0;

	if (isnan(x))
		return NAN;
	if (x == INFINITY)
		return 0;
	if (x == -INFINITY)
		return 2;
	if (x < 0) {
		x = -x;
		sign = 1;
	}
	if (x < 0.84375) {
		if (x < tiny)
			temp = x;
		else {
			z = x * x;
			r = pp0 + z * (pp1 + z * (pp2 + z * (pp3 + z * pp4)));
			s = 1 + z * (qq1 + z * (qq2 + z * (qq3 + z * (qq4 +
			    z * qq5))));
			y = r / s;
			if (x < 0.25)
				temp = x + x * y;
			else
				temp = 0.5 + (x * y + (x - 0.5));
		}
		return sign ? 1 + temp : 1 - temp;
	}
	if (x < 1.25) {
		s = x - 1;
		pv = pa0 + s * (pa1 + s * (pa2 + s * (pa3 + s * (pa4 +
		    s * (pa5 + s * pa6)))));
		qv = 1 + s * (qa1 + s * (qa2 + s * (qa3 + s * (qa4 +
		    s * (qa5 + s * qa6)))));
		if (sign)
			return 1 + erx + pv / qv;
		return 1 - erx - pv / qv;
	}
	if (x < 28) {
		s = 1 / (x * x);
		if (x < inv035) {
			rv = ra0 + s * (ra1 + s * (ra2 + s * (ra3 + s * (ra4 +
			    s * (ra5 + s * (ra6 + s * ra7))))));
			sv = 1 + s * (sa1 + s * (sa2 + s * (sa3 + s * (sa4 +
			    s * (sa5 + s * (sa6 + s * (sa7 + s * sa8)))))));
		} else {
			if (sign && x > 6)
				return 2;
			rv = rb0 + s * (rb1 + s * (rb2 + s * (rb3 + s * (rb4 +
			    s * (rb5 + s * rb6)))));
			sv = 1 + s * (sb1 + s * (sb2 + s * (sb3 + s * (sb4 +
			    s * (sb5 + s * (sb6 + s * sb7))))));
		}
		z = bits_to_double(double_to_bits(x) & 0xffffffff00000000ULL);
		r = go_exp(-z * z - 0.5625) *
		    go_exp((z - x) * (z + x) + rv / sv);
		if (sign)
			return 2 - r / x;
		return r / x;
	}
	return sign ? 2 : 0;
}

double
go_choose(int n, int k)
{
	double		a, b, c;
	int64_t		num, fact;
	int		i;

	if (k == 0 || k == n)
		return 1;
	if (k < 0 || n < k)
		return 0;
	if (n <= 20) {
		num = 1;
		for (i = n - k + 1; i <= n; i++)
			num *= i;
		fact = 1;
		for (i = 2; i <= k; i++)
			fact *= i;
		return (double)(num / fact);
	}
	a = go_lgamma_int((double)(n + 1));
	b = go_lgamma_int((double)(k + 1));
	c = go_lgamma_int((double)(n - k + 1));
	return go_exp(a - b - c);
}

double
go_geomean(const double *xs, size_t n)
{
	double	m = 0;
	size_t	i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (xs[i] <= 0)
			return NAN;
		m += (go_log(xs[i]) - m) / (double)(i + 1);
	}
	return go_exp(m);
}

static int
lower(int c)
{
	return c | 0x20;
}

static int
is_hex_digit(int c)
{
	return (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'f');
}

/* Go strconv underscoreOK: underscores only between digits. */
static int
underscore_ok(const char *s, size_t len)
{
	size_t	i = 0;
	int	saw = '^', hex = 0;

	if (len >= 1 && (s[0] == '-' || s[0] == '+')) {
		s++;
		len--;
	}
	if (len >= 2 && s[0] == '0' && (lower(s[1]) == 'b' ||
	    lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
		i = 2;
		saw = '0';
		hex = lower(s[1]) == 'x';
	}
	for (; i < len; i++) {
		if ((s[i] >= '0' && s[i] <= '9') ||
		    (hex && is_hex_digit(s[i]))) {
			saw = '0';
			continue;
		}
		if (s[i] == '_') {
			if (saw != '0')
				return 0;
			saw = '_';
			continue;
		}
		if (saw == '_')
			return 0;
		saw = '!';
	}
	return saw != '_';
}

/* Length of the case-insensitive common prefix of s[:len] and lit. */
static size_t
prefix_ci(const char *s, size_t len, const char *lit)
{
	size_t	i;

	for (i = 0; i < len && lit[i] != '\0'; i++) {
		if (lower((unsigned char)s[i]) != lit[i])
			break;
	}
	return i;
}

/* Go strconv special(): infinities and NaN spelled out in full. */
static int
parse_special(const char *s, size_t len, double *out)
{
	size_t	n, nsign = 0;
	int	neg = 0;

	if (len == 0)
		return 0;
	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		nsign = 1;
	}
	if (nsign || lower(s[0]) == 'i') {
		n = prefix_ci(s + nsign, len - nsign, "infinity");
		if (n > 3 && n < 8)
			n = 3;
		if ((n == 3 || n == 8) && nsign + n == len) {
			*out = neg ? -INFINITY : INFINITY;
			return 1;
		}
		return 0;
	}
	if (lower(s[0]) == 'n' && len == 3 && prefix_ci(s, len, "nan") == 3) {
		*out = NAN;
		return 1;
	}
	return 0;
}

/*
 * Validate s[:len] with Go's readFloat grammar and copy it without
 * underscores into clean (which has room for len + 1 bytes).
 */
static int
read_float(const char *s, size_t len, char *clean)
{
	size_t	i = 0, o = 0;
	int	hex = 0, sawdot = 0, sawdigits = 0, underscores = 0;
	int	expchar = 'e';

	if (i < len && (s[i] == '+' || s[i] == '-'))
		clean[o++] = s[i++];
	if (i + 2 < len && s[i] == '0' && lower(s[i + 1]) == 'x') {
		hex = 1;
		expchar = 'p';
		clean[o++] = '0';
		clean[o++] = 'x';
		i += 2;
	}
	for (; i < len; i++) {
		int c = (unsigned char)s[i];

		if (c == '_') {
			underscores = 1;
			continue;
		}
		if (c == '.') {
			if (sawdot)
				break;
			sawdot = 1;
			clean[o++] = '.';
			continue;
		}
		if ((c >= '0' && c <= '9') || (hex && is_hex_digit(c))) {
			sawdigits = 1;
			clean[o++] = (char)c;
			continue;
		}
		break;
	}
	if (!sawdigits)
		return -1;
	if (i < len && lower((unsigned char)s[i]) == expchar) {
		clean[o++] = (char)expchar;
		i++;
		if (i >= len)
			return -1;
		if (s[i] == '+' || s[i] == '-')
			clean[o++] = s[i++];
		if (i >= len || s[i] < '0' || s[i] > '9')
			return -1;
		for (; i < len && ((s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_'); i++) {
			if (s[i] == '_') {
				underscores = 1;
				continue;
			}
			clean[o++] = s[i];
		}
	} else if (hex)
		return -1;
	if (i != len)
		return -1;
	if (underscores && !underscore_ok(s, len))
		return -1;
	clean[o] = '\0';
	return 0;
}

int
go_parse_float(const char *s, size_t len, double *out)
{
	char		 small[128], *clean;
	int64_t		 acc = 0;
	size_t		 i;
	double		 v;
	int		 rc;

	*out = 0;
	if (len == 0)
		return -1;

	/* benchfmt's fast path: all ASCII digits, accumulated as int64. */
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			break;
		if (acc > (INT64_MAX - 10) / 10)
			break;
		acc = acc * 10 + (s[i] - '0');
	}
	if (i == len) {
		*out = (double)acc;
		return 0;
	}

	if (parse_special(s, len, out))
		return 0;

	clean = len < sizeof(small) ? small : malloc(len + 1);
	if (clean == NULL)
		return -1;
	if (read_float(s, len, clean) != 0) {
		rc = -1;
		goto out;
	}
	errno = 0;
	v = strtod(clean, NULL);
	if (isinf(v)) {
		*out = v;
		rc = -2;
		goto out;
	}
	*out = v;
	rc = 0;
out:
	if (clean != small)
		free(clean);
	return rc;
}

int
go_atoi64(const char *s, size_t len, long long *out)
{
	const uint64_t	cutoff = UINT64_MAX / 10 + 1;
	uint64_t	n = 0, n1;
	size_t		i = 0;
	int		neg = 0;

	*out = 0;
	if (len == 0)
		return -1;
	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		i = 1;
		if (len == 1)
			return -1;
	}
	for (; i < len; i++) {
		unsigned c = (unsigned char)s[i];

		if (c < '0' || c > '9')
			return -1;
		if (n >= cutoff) {
			n = UINT64_MAX;
			goto range;
		}
		n *= 10;
		n1 = n + (c - '0');
		if (n1 < n) {
			n = UINT64_MAX;
			goto range;
		}
		n = n1;
	}
	if (!neg && n >= (uint64_t)1 << 63)
		goto range;
	if (neg && n > (uint64_t)1 << 63)
		goto range;
	*out = neg ? (long long)(0 - n) : (long long)n;
	return 0;
range:
	*out = neg ? INT64_MIN : INT64_MAX;
	return -2;
}

/*
 * Shortest decimal digits that round-trip to v (finite, > 0): digits
 * d1..dn in digs (NUL-terminated, n <= 17) and the decimal exponent x of
 * d1 (v ~= d1.d2..dn * 10^x).
 */
static void
shortest_digits(double v, char *digs, int *x)
{
	char	buf[96], cand[24], *e;
	int	p, nd, i, ex;

	for (p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			goto found;
		/*
		 * At a power of two the interval below v is half as wide,
		 * so the shortest string may be the next one up rather than
		 * the nearest one.
		 */
		if ((double_to_bits(v) & 0xfffffffffffffULL) == 0) {
			nd = 0;
			for (i = 0; buf[i] != 'e'; i++)
				if (buf[i] != '.')
					cand[nd++] = buf[i];
			ex = atoi(buf + i + 1);
			for (i = nd - 1; i >= 0 && cand[i] == '9'; i--)
				cand[i] = '0';
			if (i < 0) {
				cand[0] = '1';
				ex++;
			} else
				cand[i]++;
			cand[nd] = '\0';
			snprintf(buf, sizeof(buf), "%c%s%se%d", cand[0],
			    nd > 1 ? "." : "", cand + 1, ex);
			if (strtod(buf, NULL) == v)
				goto found;
		}
	}
	/* Not reached: 17 digits always round-trip. */
	snprintf(buf, sizeof(buf), "%.16e", v);
found:
	nd = 0;
	for (i = 0; buf[i] != 'e'; i++)
		if (buf[i] != '.')
			digs[nd++] = buf[i];
	digs[nd] = '\0';
	*x = (int)strtol(buf + i + 1, &e, 10);
}

void
go_format_v(double v, char *buf, size_t len)
{
	char	digs[24], out[64];
	int	x, nd, o = 0, i, dp, prec;

	if (len == 0)
		return;
	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (signbit(v)) {
		out[o++] = '-';
		v = -v;
	}
	if (v == 0) {
		digs[0] = '0';
		digs[1] = '\0';
		x = 0;
	} else
		shortest_digits(v, digs, &x);
	nd = (int)strlen(digs);

	if (x < -4 || x >= 6) {
		out[o++] = digs[0];
		if (nd > 1) {
			out[o++] = '.';
			for (i = 1; i < nd; i++)
				out[o++] = digs[i];
		}
		o += snprintf(out + o, sizeof(out) - o, "e%c%02d",
		    x < 0 ? '-' : '+', x < 0 ? -x : x);
	} else {
		dp = x + 1;
		prec = nd - dp > 0 ? nd - dp : 0;
		if (dp > 0) {
			for (i = 0; i < dp; i++)
				out[o++] = i < nd ? digs[i] : '0';
		} else
			out[o++] = '0';
		if (prec > 0) {
			out[o++] = '.';
			for (i = 0; i < prec; i++) {
				int j = dp + i;

				out[o++] = j >= 0 && j < nd ? digs[j] : '0';
			}
		}
		out[o] = '\0';
	}
	snprintf(buf, len, "%s", out);
}

void
go_format_f(double v, int prec, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
	else
		snprintf(buf, len, "%.*f", prec, v);
}

/*
 * sort.Float64s as Go 1.19 compiles it: pdqsort over Float64Slice, whose
 * Less is x[i] < x[j] || (isNaN(x[i]) && !isNaN(x[j])).  An unstable sort
 * leaves equal elements (-0 and 0, NaNs) in an order that depends on the
 * algorithm, and that order reaches the output (an assume=exact mode, the
 * sign of a median), so this is Go's algorithm step for step.
 */
static int
fs_less(const double *x, long i, long j)
{
	return x[i] < x[j] || (isnan(x[i]) && !isnan(x[j]));
}

static void
fs_swap(double *x, long i, long j)
{
	double	t = x[i];

	x[i] = x[j];
	x[j] = t;
}

static void
fs_insertion(double *x, long a, long b)
{
	long	i, j;

	for (i = a + 1; i < b; i++)
		for (j = i; j > a && fs_less(x, j, j - 1); j--)
			fs_swap(x, j, j - 1);
}

static void
fs_sift_down(double *x, long lo, long hi, long first)
{
	long	root = lo, child;

	for (;;) {
		child = 2 * root + 1;
		if (child >= hi)
			return;
		if (child + 1 < hi && fs_less(x, first + child,
		    first + child + 1))
			child++;
		if (!fs_less(x, first + root, first + child))
			return;
		fs_swap(x, first + root, first + child);
		root = child;
	}
}

static void
fs_heap(double *x, long a, long b)
{
	long	i, hi = b - a;

	for (i = (hi - 1) / 2; i >= 0; i--)
		fs_sift_down(x, i, hi, a);
	for (i = hi - 1; i >= 0; i--) {
		fs_swap(x, a, a + i);
		fs_sift_down(x, 0, i, a);
	}
}

static int
fs_bits_len(unsigned long v)
{
	int	n = 0;

	while (v != 0) {
		n++;
		v >>= 1;
	}
	return n;
}

static void
fs_break_patterns(double *x, long a, long b)
{
	long		length = b - a, idx, other;
	uint64_t	r;
	unsigned long	modulus;

	if (length < 8)
		return;
	/* Go 1.19's xorshift (13, 17, 5; later Go uses 13, 7, 17). */
	r = (uint64_t)length;
	modulus = 1UL << fs_bits_len((unsigned long)length);
	for (idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1;
	    idx++) {
		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		other = (long)((unsigned long)r & (modulus - 1));
		if (other >= length)
			other -= length;
		fs_swap(x, idx, a + other);
	}
}

static long
fs_median(const double *x, long a, long b, long c, int *swaps)
{
	long	t;

	if (fs_less(x, b, a)) {
		(*swaps)++;
		t = a, a = b, b = t;
	}
	if (fs_less(x, c, b)) {
		(*swaps)++;
		t = b, b = c, c = t;
	}
	if (fs_less(x, b, a)) {
		(*swaps)++;
		t = a, a = b, b = t;
	}
	return b;
}

enum { FS_UNKNOWN, FS_INCREASING, FS_DECREASING };

static long
fs_choose_pivot(const double *x, long a, long b, int *hint)
{
	long	l = b - a, i, j, k;
	int	swaps = 0;

	i = a + l / 4 * 1;
	j = a + l / 4 * 2;
	k = a + l / 4 * 3;
	if (l >= 8) {
		if (l >= 50) {
			i = fs_median(x, i - 1, i, i + 1, &swaps);
			j = fs_median(x, j - 1, j, j + 1, &swaps);
			k = fs_median(x, k - 1, k, k + 1, &swaps);
		}
		j = fs_median(x, i, j, k, &swaps);
	}
	*hint = swaps == 0 ? FS_INCREASING : swaps == 12 ? FS_DECREASING :
	    FS_UNKNOWN;
	return j;
}

static int
fs_partial_insertion(double *x, long a, long b)
{
	long	i = a + 1, j, s;

	for (s = 0; s < 5; s++) {
		while (i < b && !fs_less(x, i, i - 1))
			i++;
		if (i == b)
			return 1;
		if (b - a < 50)
			return 0;
		fs_swap(x, i, i - 1);
		if (i - a >= 2) {
			for (j = i - 1; j >= 1; j--) {
				if (!fs_less(x, j, j - 1))
					break;
				fs_swap(x, j, j - 1);
			}
		}
		if (b - i >= 2) {
			for (j = i + 1; j < b; j++) {
				if (!fs_less(x, j, j - 1))
					break;
				fs_swap(x, j, j - 1);
			}
		}
	}
	return 0;
}

static long
fs_partition_equal(double *x, long a, long b, long pivot)
{
	long	i, j;

	fs_swap(x, a, pivot);
	i = a + 1;
	j = b - 1;
	for (;;) {
		while (i <= j && !fs_less(x, a, i))
			i++;
		while (i <= j && fs_less(x, a, j))
			j--;
		if (i > j)
			break;
		fs_swap(x, i, j);
		i++;
		j--;
	}
	return i;
}

static long
fs_partition(double *x, long a, long b, long pivot, int *already)
{
	long	i, j;

	fs_swap(x, a, pivot);
	i = a + 1;
	j = b - 1;
	while (i <= j && fs_less(x, i, a))
		i++;
	while (i <= j && !fs_less(x, j, a))
		j--;
	if (i > j) {
		fs_swap(x, j, a);
		*already = 1;
		return j;
	}
	fs_swap(x, i, j);
	i++;
	j--;
	for (;;) {
		while (i <= j && fs_less(x, i, a))
			i++;
		while (i <= j && !fs_less(x, j, a))
			j--;
		if (i > j)
			break;
		fs_swap(x, i, j);
		i++;
		j--;
	}
	fs_swap(x, j, a);
	*already = 0;
	return j;
}

static void
fs_pdqsort(double *x, long a, long b, int limit)
{
	int	was_balanced = 1, was_partitioned = 1, hint, already;
	long	length, pivot, mid, i, j;

	for (;;) {
		length = b - a;
		if (length <= 12) {
			fs_insertion(x, a, b);
			return;
		}
		if (limit == 0) {
			fs_heap(x, a, b);
			return;
		}
		if (!was_balanced) {
			fs_break_patterns(x, a, b);
			limit--;
		}
		pivot = fs_choose_pivot(x, a, b, &hint);
		if (hint == FS_DECREASING) {
			for (i = a, j = b - 1; i < j; i++, j--)
				fs_swap(x, i, j);
			pivot = (b - 1) - (pivot - a);
			hint = FS_INCREASING;
		}
		if (was_balanced && was_partitioned &&
		    hint == FS_INCREASING && fs_partial_insertion(x, a, b))
			return;
		if (a > 0 && !fs_less(x, a - 1, pivot)) {
			a = fs_partition_equal(x, a, b, pivot);
			continue;
		}
		mid = fs_partition(x, a, b, pivot, &already);
		was_partitioned = already;
		if (mid - a < b - mid) {
			was_balanced = mid - a >= length / 8;
			fs_pdqsort(x, a, mid, limit);
			a = mid + 1;
		} else {
			was_balanced = b - mid >= length / 8;
			fs_pdqsort(x, mid + 1, b, limit);
			b = mid;
		}
	}
}

void
go_sort_float64s(double *x, size_t n)
{
	if (n <= 1)
		return;
	fs_pdqsort(x, 0, (long)n, fs_bits_len((unsigned long)n));
}
