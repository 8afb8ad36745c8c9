/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which rootfs directory an oci workload's `image` names: a path, or the
 * name scripts/build-image gave the image it also wrote as a directory
 * (exec/exec-oci.h: oci_image_rootfs), so that one experiment names its
 * image alike for every executor.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec-oci.h"
#include "lib/options.h"
#include "lib/util.h"

const char *
oci_default_rootfs(void)
{
	const char	*r = getenv("ABBENCH_ROOTFS");

	return r != NULL && *r != '\0' ? r : EXEC_OCI_DEFAULT_ROOTFS;
}

char *
oci_image_rootfs(const char *image, char **cause)
{
	const char	*dir = getenv("ABBENCH_IMAGE_DIR"), *name, *tag;
	const char	*own = getenv("ABBENCH_ROOTFS");
	char		*app, *r;

	if (image != NULL && image[0] == '/')
		return xstrdup(image);
	if (image == NULL)
		image = "abbench/tools";
	if (!str_startswith(image, "abbench/") || image[8] == '\0' ||
	    image[8] == ':') {
		set_cause(cause, "image '%s': executor 'oci' takes a rootfs "
		    "directory (a path) or an image of scripts/build-image "
		    "(abbench/tools, abbench/NAME[:TAG])", image);
		return NULL;
	}
	if (dir == NULL || *dir == '\0')
		dir = "/var/lib/abbench";
	name = image + 8;
	tag = strchr(name, ':');
	app = tag != NULL ? xstrndup(name, (size_t)(tag - name)) :
	    xstrdup(name);
	if (tag != NULL && strcmp(tag + 1, "latest") == 0)
		tag = NULL;
	if (strchr(app, '/') != NULL || (tag != NULL &&
	    (tag[1] == '\0' || strchr(tag + 1, '/') != NULL))) {
		set_cause(cause, "image '%s': not an image of "
		    "scripts/build-image (abbench/NAME[:TAG])", image);
		free(app);
		return NULL;
	}
	/* The tools image as it always was, unless only the directory of
	 * the images was moved. */
	if (strcmp(app, "tools") == 0 && tag == NULL)
		r = (own != NULL && *own != '\0') ||
		    getenv("ABBENCH_IMAGE_DIR") == NULL ?
		    xstrdup(oci_default_rootfs()) :
		    xasprintf("%s/current", dir);
	else if (strcmp(app, "tools") == 0)
		r = xasprintf("%s/rootfs-%s", dir, tag + 1);
	else if (tag == NULL)
		r = xasprintf("%s/%s-current", dir, app);
	else
		r = xasprintf("%s/%s-rootfs-%s", dir, app, tag + 1);
	free(app);
	return r;
}

/* The command that makes an image's rootfs directory. */
char *
oci_image_build_hint(const char *image)
{
	const char	*app = image != NULL ? image + 8 : NULL;
	size_t		 n = app != NULL ? strcspn(app, ":") : 0;

	if (image == NULL || !str_startswith(image, "abbench/") ||
	    (n == 5 && strncmp(app, "tools", 5) == 0))
		return xstrdup("scripts/build-image");
	return xasprintf("scripts/build-image --app %.*s", (int)n, app);
}

/* The images scripts/build-image makes (its --app names, and tools). */
static const char *const build_image_apps[] = {
	"tools", "sysbench", "hackbench", "redis", "nginx", "httpd", "node",
	"ruby", "iperf", "ffmpeg", "syscallbench", NULL
};

char *
image_hint(const char *image, const char *have)
{
	struct strbuf	 cand = STRBUF_INIT;
	char		*best, *r, *dir, *p;
	size_t		 i;

	if (image == NULL)
		return xstrdup("");
	if (have != NULL) {
		strbuf_adds(&cand, have);
		for (p = cand.buf; p != NULL && *p != '\0'; p++)
			if (*p == '\n')
				*p = ' ';
	} else
		for (i = 0; build_image_apps[i] != NULL; i++) {
			char	*name = xasprintf("abbench/%s",
			    build_image_apps[i]);

			dir = oci_image_rootfs(name, NULL);
			if (dir != NULL && access(dir, F_OK) == 0)
				strbuf_addf(&cand, "%s ", name);
			free(dir);
			free(name);
		}
	best = words_nearest(cand.buf != NULL ? cand.buf : "", image);
	strbuf_release(&cand);
	r = best != NULL ? xasprintf("; did you mean '%s'?", best) :
	    xstrdup("");
	free(best);
	return r;
}
