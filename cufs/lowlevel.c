/*
 * lowlevel.c - the kernel's requests to cufs, through libfuse's low-level
 * API, answered with what tree.c finds by path. The kernel names a file
 * by an inode number: one is given here to each path it looks up, and
 * kept until it forgets it.
 *
 * Each reply carries its own timeouts. A name is kept 0.1 s (ls -l walks
 * each entry's path three times). The attributes of a directory, a link,
 * a writable file and the event log are kept not at all: a mode depends
 * on who asks, and the log grows. A read-only text file's are kept
 * ATTR_TIMEOUT, its size being its text's length, so that the kernel may
 * read it through its page cache: an open compares the text it took with
 * the one the kernel's pages hold and lets the kernel keep them when they
 * are the same, so that reading a value that did not change costs two
 * requests (OPEN, RELEASE) where a direct read costs four (DESIGN.md,
 * "What a read costs"). Where the kernel could hold another size (an
 * attribute reply under way, another open in the cache's way), the open
 * reads directly, as every file did before. With -o allow_other, another
 * user could stat a kept inode of a process's object: only devices/ is
 * kept then.
 *
 * Locking: ino_lock guards the inode table and each inode's cache state;
 * it is never held while tree.c works or a reply is written.
 */
#define FUSE_USE_VERSION 34
#include "cufs.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ENTRY_TIMEOUT 0.1
#define ATTR_TIMEOUT 1.0
/* The inode number a listing's entries carry: the one libfuse's
 * high-level API gives names listed without attributes (tools skip an
 * entry numbered 0). */
#define LISTED_INO 0xffffffffu
/* A listing of at least this many names tidies the heap (releasedir). */
#define TRIM_ENTRIES 65536

struct inode {
	uint64_t ino;
	char *path;
	uint64_t nlookup;     /* the kernel's references */
	unsigned opens;       /* handles open on it */
	/* A read-only text file's page cache (ino_lock): */
	unsigned replying;    /* attribute replies being made */
	bool mixed;           /* two overlapped: the kernel's size unknown */
	bool told_ok;         /* the kernel's size is told */
	uint64_t told;
	bool cached_open;     /* a handle reads through the cache now */
	size_t cached_len;    /* its text's length */
	char *kept;           /* the text the kernel's pages may hold */
	size_t kept_len;
};

/* An open file: tree.c's handle, and whether it reads through the cache;
 * linked in open_list until released. */
struct llfile {
	struct fh *fh;
	struct inode *in;
	bool cached;
	struct llfile *next, **prevp;
};

/* An open directory: its names, taken at the first readdir. */
struct lldir {
	json_t *names;
};

/* The inode table, by number and by path (tsearch trees, O(log n)), and
 * the next number. Global: the kernel's inodes are the mount's. */
static pthread_mutex_t ino_lock = PTHREAD_MUTEX_INITIALIZER;
static void *by_ino, *by_path;
static uint64_t next_ino = FUSE_ROOT_ID + 1;
static struct inode root = { .ino = FUSE_ROOT_ID, .path = "/", .nlookup = 1 };
/* The files open now (ino_lock): a mount that goes away with files open
 * (a lazy unmount, a killed reader of a stream) sends no release, and
 * destroy closes them. */
static struct llfile *open_list;

/* The session (cufs_exiting) and the request each worker serves (tree.c
 * asks who made it): libfuse's workers serve one request at a time, and
 * every handler that calls into tree.c sets it first (begin). */
static struct fuse_session *session;
static __thread fuse_req_t cur_req;

static int cmp_ino(const void *a, const void *b)
{
	const struct inode *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct inode *)a)->path,
		      ((const struct inode *)b)->path);
}

/* ino_lock held. */
static struct inode *find_ino(fuse_ino_t ino)
{
	struct inode key = { .ino = ino };
	void *hit;

	if (ino == FUSE_ROOT_ID)
		return &root;
	hit = tfind(&key, &by_ino, cmp_ino);
	return hit ? *(struct inode **)hit : NULL;
}

/* The inode of path, made if the kernel has none; takes path. ino_lock
 * held. NULL when out of memory. */
static struct inode *inode_of(char *path)
{
	struct inode key = { .path = path }, *in;
	void *hit = tfind(&key, &by_path, cmp_path);

	if (hit) {
		free(path);
		return *(struct inode **)hit;
	}
	if (!(in = calloc(1, sizeof *in))) {
		free(path);
		return NULL;
	}
	in->ino = next_ino++;
	in->path = path;
	if (!tsearch(in, &by_ino, cmp_ino)) {
		free(in->path);
		free(in);
		return NULL;
	}
	if (!tsearch(in, &by_path, cmp_path)) {
		tdelete(in, &by_ino, cmp_ino);
		free(in->path);
		free(in);
		return NULL;
	}
	return in;
}

/* Drops an inode the kernel forgot and nobody holds open. ino_lock held. */
static void inode_drop(struct inode *in)
{
	if (in == &root || in->nlookup || in->opens)
		return;
	tdelete(in, &by_ino, cmp_ino);
	tdelete(in, &by_path, cmp_path);
	free(in->kept);
	free(in->path);
	free(in);
}

/* A copy of ino's path, or NULL (*err: ESTALE for an inode not known,
 * ENOMEM). */
static char *path_of(fuse_ino_t ino, int *err)
{
	struct inode *in;
	char *p = NULL;

	pthread_mutex_lock(&ino_lock);
	in = find_ino(ino);
	if (in && !(p = strdup(in->path)))
		*err = ENOMEM;
	else if (!in)
		*err = ESTALE;
	pthread_mutex_unlock(&ino_lock);
	return p;
}

/* parent's path and name joined: a new string, or NULL (*err). */
static char *child_path(fuse_ino_t parent, const char *name, int *err)
{
	char *dir = path_of(parent, err), *p = NULL;
	size_t dl, nl = strlen(name);

	if (!dir)
		return NULL;
	dl = strcmp(dir, "/") ? strlen(dir) : 0;
	if (dl + nl + 2 > PATH_MAX)
		*err = ENAMETOOLONG;
	else if (!(p = malloc(dl + nl + 2)))
		*err = ENOMEM;
	if (p) {
		memcpy(p, dir, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, name, nl + 1);
	}
	free(dir);
	return p;
}

/* Whether the kernel may keep what a read-only text file at path shows. */
static bool may_keep(const char *path, bool ro)
{
	return ro && (!cufs_opt.allow_other || !strncmp(path, "/devices/", 9));
}

/* --------------------------------------------------- attribute replies */

/* An attribute reply for in starts: its size, while a handle reads
 * through the cache, is that handle's text's. ino_lock held. */
static void reply_begin(struct inode *in, struct stat *st, bool keep)
{
	if (!keep)
		return;
	if (in->replying++)
		in->mixed = true;
	if (in->cached_open)
		st->st_size = (off_t)in->cached_len;
}

/* ... and has been written: the kernel holds its size, unless another
 * overlapped it (then which came last is not known). ino_lock held. */
static void reply_end(struct inode *in, const struct stat *st, bool keep)
{
	if (!keep)
		return;
	if (in->mixed) {
		in->told_ok = false;
	} else {
		in->told = (uint64_t)st->st_size;
		in->told_ok = true;
	}
	if (--in->replying == 0)
		in->mixed = false;
}

static void begin(fuse_req_t req)
{
	cur_req = req;
}

static void ll_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	struct inode *in;
	int err = 0, rc;
	bool ro, keep;
	char *path;

	begin(req);
	memset(&e, 0, sizeof e);
	if (!(path = child_path(parent, name, &err))) {
		fuse_reply_err(req, err == ESTALE ? ENOENT : err);
		return;
	}
	if ((rc = cufs_tree_getattr(path, &e.attr, &ro)) < 0) {
		free(path);
		fuse_reply_err(req, -rc);
		return;
	}
	keep = may_keep(path, ro);
	pthread_mutex_lock(&ino_lock);
	if (!(in = inode_of(path))) {
		pthread_mutex_unlock(&ino_lock);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	in->nlookup++;
	reply_begin(in, &e.attr, keep);
	pthread_mutex_unlock(&ino_lock);
	e.ino = in->ino;
	e.attr.st_ino = (ino_t)in->ino;
	e.entry_timeout = ENTRY_TIMEOUT;
	e.attr_timeout = keep ? ATTR_TIMEOUT : 0;
	rc = fuse_reply_entry(req, &e);
	pthread_mutex_lock(&ino_lock);
	reply_end(in, &e.attr, keep);
	/* Interrupted, the kernel holds no reference for this lookup. */
	if (rc < 0) {
		in->nlookup--;
		inode_drop(in);
	}
	pthread_mutex_unlock(&ino_lock);
}

static void forget_one(fuse_ino_t ino, uint64_t n)
{
	struct inode *in;

	pthread_mutex_lock(&ino_lock);
	if ((in = find_ino(ino)) && in != &root) {
		in->nlookup = n < in->nlookup ? in->nlookup - n : 0;
		inode_drop(in);
	}
	pthread_mutex_unlock(&ino_lock);
}

static void ll_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	forget_one(ino, nlookup);
	fuse_reply_none(req);
}

static void ll_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	for (size_t i = 0; i < count; i++)
		forget_one(forgets[i].ino, forgets[i].nlookup);
	fuse_reply_none(req);
}

/* Replies with ino's attributes (fi: through an open file). */
static void reply_attr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct llfile *f = fi ? (struct llfile *)(uintptr_t)fi->fh : NULL;
	struct inode *in;
	struct stat st;
	bool ro = true, keep;
	int err = 0, rc;
	char *path;

	if (f && f->cached) {
		keep = true;
	} else {
		if (!(path = path_of(ino, &err))) {
			fuse_reply_err(req, err);
			return;
		}
		if ((rc = cufs_tree_getattr(path, &st, &ro)) < 0) {
			free(path);
			fuse_reply_err(req, -rc);
			return;
		}
		keep = may_keep(path, ro);
		free(path);
	}
	pthread_mutex_lock(&ino_lock);
	if (!(in = find_ino(ino))) {
		pthread_mutex_unlock(&ino_lock);
		fuse_reply_err(req, ESTALE);
		return;
	}
	/* A file read through the cache: what it was opened with, and its
	 * text's length. */
	if (f && f->cached) {
		cufs_tree_fh_stat(f->fh, &st);
		st.st_size = (off_t)in->cached_len;
	}
	reply_begin(in, &st, keep);
	pthread_mutex_unlock(&ino_lock);
	st.st_ino = (ino_t)ino;
	fuse_reply_attr(req, &st, keep ? ATTR_TIMEOUT : 0);
	pthread_mutex_lock(&ino_lock);
	reply_end(in, &st, keep);
	pthread_mutex_unlock(&ino_lock);
}

static void ll_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	begin(req);
	reply_attr(req, ino, fi);
}

/* As libfuse's high-level API answered: no chmod or chown (ENOSYS), a
 * truncation where a write may go, no times (EPERM: the tree is the
 * model's, as procfs answers). */
static void ll_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	int err = 0, rc = 0;
	char *path;

	(void)attr;
	begin(req);
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID |
		      FUSE_SET_ATTR_GID)) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	if (to_set & FUSE_SET_ATTR_SIZE) {
		if (!(path = path_of(ino, &err))) {
			fuse_reply_err(req, err);
			return;
		}
		rc = cufs_tree_truncate(path, fi != NULL);
		free(path);
	}
	if (rc == 0 && (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME |
				  FUSE_SET_ATTR_ATIME_NOW |
				  FUSE_SET_ATTR_MTIME_NOW)))
		rc = -EPERM;
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	reply_attr(req, ino, fi);
}

static void ll_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX], *path;
	int err = 0, rc;

	begin(req);
	if (!(path = path_of(ino, &err))) {
		fuse_reply_err(req, err);
		return;
	}
	rc = cufs_tree_readlink(path, buf, sizeof buf);
	free(path);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_readlink(req, buf);
}

/* ------------------------------------------------------------- files */

/* Whether f reads through the page cache, and whether the kernel's pages
 * may stay: the text o took is the one they hold, at the size the kernel
 * was told. *inval: the kernel's attributes must be asked again first.
 * ino_lock held. */
static void choose_cache(struct llfile *f, const struct cufs_open *o,
			 struct fuse_file_info *fi, bool *inval)
{
	struct inode *in = f->in;
	char *copy;

	*inval = false;
	if (in->cached_open || in->replying)
		return;
	if (!in->kept || in->kept_len != o->len ||
	    memcmp(in->kept, o->text, o->len)) {
		if (!(copy = malloc(o->len + 1)))
			return;
		memcpy(copy, o->text, o->len);
		free(in->kept);
		in->kept = copy;
		in->kept_len = o->len;
	} else if (in->told_ok && in->told == o->len) {
		fi->keep_cache = 1;
	}
	if (!in->told_ok || in->told != o->len) {
		*inval = true;
		in->told_ok = false;
	}
	in->cached_open = true;
	in->cached_len = o->len;
	f->cached = true;
	fi->direct_io = 0;
}

static void file_close(struct llfile *f)
{
	pthread_mutex_lock(&ino_lock);
	if (f->prevp) {
		*f->prevp = f->next;
		if (f->next)
			f->next->prevp = f->prevp;
	}
	if (f->in) {
		f->in->opens--;
		if (f->cached)
			f->in->cached_open = false;
		inode_drop(f->in);
	}
	pthread_mutex_unlock(&ino_lock);
	cufs_tree_release(f->fh);
	free(f);
}

static void ll_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cufs_open o;
	struct llfile *f;
	int err = 0, rc;
	bool inval = false, keep;
	char *path;

	begin(req);
	if (!(path = path_of(ino, &err))) {
		fuse_reply_err(req, err);
		return;
	}
	if (!(f = calloc(1, sizeof *f))) {
		free(path);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	rc = cufs_tree_open(path, fi->flags, &o);
	keep = o.text && may_keep(path, true);
	free(path);
	if (rc < 0) {
		free(f);
		fuse_reply_err(req, -rc);
		return;
	}
	f->fh = o.fh;
	/* Every read reaches cufs unless the cache may serve it. */
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fi->nonseekable = o.stream;
	pthread_mutex_lock(&ino_lock);
	f->next = open_list;
	f->prevp = &open_list;
	if (open_list)
		open_list->prevp = &f->next;
	open_list = f;
	if ((f->in = find_ino(ino))) {
		f->in->opens++;
		if (keep)
			choose_cache(f, &o, fi, &inval);
	}
	pthread_mutex_unlock(&ino_lock);
	/* The kernel's size is not the text's: it asks again at the read,
	 * and this handle answers. */
	if (inval)
		fuse_lowlevel_notify_inval_inode(session, ino, -1, 0);
	fi->fh = (uint64_t)(uintptr_t)f;
	/* Interrupted, the kernel has no such file; nor do we. */
	if (fuse_reply_open(req, fi) < 0)
		file_close(f);
}

static void ll_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct llfile *f = (struct llfile *)(uintptr_t)fi->fh;
	char *buf = malloc(size ? size : 1);
	int n;

	(void)ino;
	begin(req);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = cufs_tree_read(f->fh, buf, size, off);
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void ll_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct llfile *f = (struct llfile *)(uintptr_t)fi->fh;
	int n;

	(void)ino, (void)off;
	begin(req);
	n = cufs_tree_write(f->fh, buf, size);
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_write(req, (size_t)n);
}

static void ll_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct llfile *f = (struct llfile *)(uintptr_t)fi->fh;

	(void)ino;
	begin(req);
	file_close(f);
	fuse_reply_err(req, 0);
}

static void ll_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	struct llfile *f = (struct llfile *)(uintptr_t)fi->fh;
	unsigned revents = 0;

	(void)ino;
	begin(req);
	cufs_tree_poll(f->fh, ph, &revents);
	fuse_reply_poll(req, revents);
}

/* ------------------------------------------------------- directories */

static void ll_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct lldir *d = calloc(1, sizeof *d);

	(void)ino;
	begin(req);
	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	if (fuse_reply_open(req, fi) < 0)
		free(d);
}

/* The name at index i of a listing: ".", "..", then the directory's. */
static const char *name_at(const struct lldir *d, size_t i)
{
	if (i < 2)
		return i ? ".." : ".";
	return json_string_value(json_array_get(d->names, i - 2));
}

/* What a listing's names are taken at: its first readdir, and again
 * when it starts over (rewinddir). */
static void ll_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct lldir *d = (struct lldir *)(uintptr_t)fi->fh;
	struct stat st = { .st_ino = LISTED_INO };
	size_t used = 0, n, i;
	int err = 0, rc;
	char *path, *buf;
	const char *name;

	begin(req);
	if (off == 0 || !d->names) {
		if (!(path = path_of(ino, &err))) {
			fuse_reply_err(req, err);
			return;
		}
		json_decref(d->names);
		rc = cufs_tree_list(path, &d->names);
		free(path);
		if (rc < 0) {
			fuse_reply_err(req, -rc);
			return;
		}
	}
	if (!(buf = malloc(size ? size : 1))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = json_array_size(d->names) + 2;
	for (i = off < 0 ? 0 : (size_t)off; i < n; i++) {
		if (!(name = name_at(d, i)))
			continue;
		rc = (int)fuse_add_direntry(req, buf + used, size - used, name,
					    &st, (off_t)(i + 1));
		if ((size_t)rc > size - used)
			break;
		used += (size_t)rc;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void ll_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct lldir *d = (struct lldir *)(uintptr_t)fi->fh;
	bool long_one = json_array_size(d->names) >= TRIM_ENTRIES;

	(void)ino;
	json_decref(d->names);
	free(d);
	fuse_reply_err(req, 0);
	/* A long listing frees much heap at once (a million names: some
	 * 270 MiB). */
	if (long_one)
		cufs_tidy_heap();
}

/* ------------------------------------------------- names never made */

/* The tree is the model's: no name is made or taken away through it. As
 * procfs answers: a new name does not exist (ENOENT: touch, mkdir, a
 * write to a file that is not there), an existing one may not be removed
 * or renamed (EPERM). Without these the kernel would answer "Function not
 * implemented". */
static void ll_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	(void)parent, (void)name, (void)mode, (void)rdev;
	fuse_reply_err(req, ENOENT);
}

static void ll_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	(void)parent, (void)name, (void)mode;
	fuse_reply_err(req, ENOENT);
}

static void ll_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	(void)link, (void)parent, (void)name;
	fuse_reply_err(req, ENOENT);
}

static void ll_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	(void)parent, (void)name, (void)mode, (void)fi;
	fuse_reply_err(req, ENOENT);
}

static void ll_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent, (void)name;
	fuse_reply_err(req, EPERM);
}

static void ll_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	(void)parent, (void)name, (void)newparent, (void)newname, (void)flags;
	fuse_reply_err(req, EPERM);
}

/* -------------------------------------------------------- the mount */

static void ll_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	/* An open decides whether the kernel's pages stay (choose_cache);
	 * with this on, every new mtime (now, at each reply) would drop
	 * them as well. */
	conn->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
	cufs_tree_start();
}

static void inode_free(void *p)
{
	struct inode *in = p;

	free(in->kept);
	free(in->path);
	free(in);
}

static void inode_keep(void *p)
{
	(void)p;
}

static void ll_destroy(void *data)
{
	(void)data;
	/* The mount is gone: so are its open files and inodes. */
	while (open_list)
		file_close(open_list);
	cufs_tree_stop();
	pthread_mutex_lock(&ino_lock);
	tdestroy(by_ino, inode_keep);
	tdestroy(by_path, inode_free);
	by_ino = by_path = NULL;
	free(root.kept);
	root.kept = NULL;
	pthread_mutex_unlock(&ino_lock);
}

void cufs_ll_session(struct fuse_session *se)
{
	session = se;
}

uid_t cufs_caller_uid(void)
{
	const struct fuse_ctx *c = cur_req ? fuse_req_ctx(cur_req) : NULL;

	return c ? c->uid : getuid();
}

bool cufs_caller_interrupted(void)
{
	return cur_req && fuse_req_interrupted(cur_req);
}

bool cufs_exiting(void)
{
	return session && fuse_session_exited(session);
}

const struct fuse_lowlevel_ops cufs_ll_ops = {
	.init = ll_init,
	.destroy = ll_destroy,
	.lookup = ll_lookup,
	.forget = ll_forget,
	.forget_multi = ll_forget_multi,
	.getattr = ll_getattr,
	.setattr = ll_setattr,
	.readlink = ll_readlink,
	.mknod = ll_mknod,
	.mkdir = ll_mkdir,
	.symlink = ll_symlink,
	.unlink = ll_unlink,
	.rmdir = ll_unlink,
	.rename = ll_rename,
	.create = ll_create,
	.open = ll_open,
	.read = ll_read,
	.write = ll_write,
	.release = ll_release,
	.opendir = ll_opendir,
	.readdir = ll_readdir,
	.releasedir = ll_releasedir,
	.poll = ll_poll,
};
