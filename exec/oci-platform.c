/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whether runsc can give an arm the platform it names, asked of runsc and
 * of the host when the experiment is loaded (exec-oci.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec-oci.h"
#include "exec/spawn.h"
#include "lib/util.h"

int
oci_platform_check(const char *rt, const char *pf, const char *at,
    char **cause)
{
	char	*root, *rootarg, *pfarg, *err = NULL, *c = NULL, *nl;
	char	*argv[5];
	int	 status = -1, fd, rc = 0;

	if (strcmp(pf, "kvm") == 0) {
		if ((fd = open("/dev/kvm", O_RDWR | O_CLOEXEC)) == -1)
			return set_cause(cause, "%s: kvm needs /dev/kvm: %s "
			    "(use ptrace, or systrap with a runsc that has it)",
			    at, strerror(errno));
		close(fd);
	}
	root = tmp_path("abbench-platform-XXXXXX");
	if (mkdtemp(root) == NULL) {
		set_cause(cause, "cannot create '%s': %s", root,
		    strerror(errno));
		free(root);
		return -1;
	}
	rootarg = xasprintf("--root=%s", root);
	pfarg = xasprintf("--platform=%s", pf);
	argv[0] = (char *)rt;
	argv[1] = rootarg;
	argv[2] = pfarg;
	argv[3] = "list";
	argv[4] = NULL;
	if (spawn_capture(argv, 20 * NSEC_PER_SEC, NULL, &err, &status,
	    &c) == -1 || status != 0) {
		/* runsc's last line says why ("unknown platform: X"). */
		while (err != NULL && (nl = strrchr(err, '\n')) != NULL &&
		    nl[1] == '\0')
			*nl = '\0';
		if (err != NULL && (nl = strrchr(err, '\n')) != NULL)
			memmove(err, nl + 1, strlen(nl + 1) + 1);
		set_cause(cause, "%s: runsc '%s' cannot use platform '%s': %s",
		    at, rt, pf, c != NULL ? c : err != NULL && err[0] != '\0' ?
		    err : "it refused it");
		rc = -1;
	}
	(void)rmdir(root);
	free(root);
	free(rootarg);
	free(pfarg);
	free(err);
	free(c);
	return rc;
}
