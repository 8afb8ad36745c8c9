/*
 * Helpers the host settings share with their recovery (recover.c): how a
 * setting's file is read and compared.
 */
#ifndef ABBENCH_HOSTSET_INT_H
#define ABBENCH_HOSTSET_INT_H

/* The current value of a setting's file (the bracketed word where the
 * file lists choices: "a [b] c" reads b). */
char	*hostset_read(const char *path, int bracket, char **cause);
/* Values compare with blanks folded (sysctl "a\tb" equals "a b"). */
int	 hostset_same(const char *a, const char *b);
/* Does the file at path list choices with the current one bracketed? */
int	 hostset_bracketed(const char *path);

#endif
