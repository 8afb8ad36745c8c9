/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 (FIPS 180-4) of a file, to name a runtime binary by its content:
 * two builds of one commit print one version, never one digest.
 */
#ifndef ABBENCH_SHA256_H
#define ABBENCH_SHA256_H

/*
 * The digest of the file at path as 64 lowercase hex digits into hex
 * (65 bytes with the NUL). 0, or -1 with *cause (caller frees).
 */
int	sha256_file(const char *path, char hex[65], char **cause);

#endif
