/* Workers over devices (ck_internal.h, ck_team): the threads, their lanes, the stop flag, the
 * copies a source device's own worker waits for, and which failure a call reports. The work
 * itself is the caller's: spread.c's panels of a product, apsp_pages.c's runs of pages. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ck_internal.h"

/* How often the calling thread polls Ctrl-C while the workers run. */
#define TEAM_POLL_NS 5000000L

ck_status ck_peer_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes) {
  if (bytes == 0) return CK_OK;
  CK_CUDA(cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, 0), "copying between devices");
  return CK_OK;
}

void ck_team_copies_done(ck_worker *w) {
  ck_team *t = w->team;
  if (!w->copies) return;
  w->copies = 0;
  pthread_mutex_lock(&t->lock);
  t->copies_pending--;
  pthread_cond_broadcast(&t->changed);
  pthread_mutex_unlock(&t->lock);
}

void ck_team_wait_for_copies(ck_team *t) {
  pthread_mutex_lock(&t->lock);
  while (t->copies_pending > 0 && !t->stop) pthread_cond_wait(&t->changed, &t->lock);
  pthread_mutex_unlock(&t->lock);
}

static void stop_all(ck_team *t) {
  pthread_mutex_lock(&t->lock);
  t->stop = 1;
  pthread_cond_broadcast(&t->changed); /* a worker waiting for copies wakes to the flag */
  pthread_mutex_unlock(&t->lock);
}

static void *work(void *arg) {
  ck_worker *w = arg;
  ck_team *t = w->team;
  ck_lane_enter(w->slot, &t->stop);
  w->s = t->run(w);
  if (w->s != CK_OK) {
    snprintf(w->msg, sizeof w->msg, "%s", ck_last_error());
    if (!t->fatal || t->fatal(w->s)) stop_all(t);
  }
  ck_team_copies_done(w); /* after a failure too: the source's worker must not wait for it */
  ck_lane_enter(0, NULL);
  pthread_mutex_lock(&t->lock);
  t->running--;
  pthread_cond_broadcast(&t->changed);
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

/* Until every started worker is done; with `cancelled`, polled at once and then every
 * TEAM_POLL_NS. */
static void wait_for_workers(ck_team *t) {
  if (t->cancelled && t->cancelled(t->ctx)) t->interrupted = 1, stop_all(t);
  pthread_mutex_lock(&t->lock);
  while (t->running > 0) {
    if (!t->cancelled || t->stop) {
      pthread_cond_wait(&t->changed, &t->lock);
      continue;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += TEAM_POLL_NS;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    if (pthread_cond_timedwait(&t->changed, &t->lock, &until) != ETIMEDOUT) continue;
    pthread_mutex_unlock(&t->lock);
    if (t->cancelled(t->ctx)) t->interrupted = 1, stop_all(t);
    pthread_mutex_lock(&t->lock);
  }
  pthread_mutex_unlock(&t->lock);
}

void ck_team_run(ck_team *t, ck_worker *ws, int count) {
  for (int i = 0; i < count; i++) {
    ws[i].team = t;
    ws[i].slot = 1 + i;
    ws[i].s = CK_OK;
    ws[i].msg[0] = 0;
    ws[i].started = 0;
    t->copies_pending += ws[i].copies != 0;
  }
  for (int i = 0; i < count; i++) { /* every count is known before a thread may wait on it */
    ck_worker *w = &ws[i];
    pthread_mutex_lock(&t->lock);
    t->running++;
    pthread_mutex_unlock(&t->lock);
    w->started = pthread_create(&w->thread, NULL, work, w) == 0;
    if (w->started) continue;
    pthread_mutex_lock(&t->lock);
    t->running--;
    pthread_mutex_unlock(&t->lock);
    w->s = ck_fail(CK_ERR_CUDA, "could not start a thread for device %d", w->dev + 1);
    snprintf(w->msg, sizeof w->msg, "%s", ck_last_error());
    stop_all(t);
    ck_team_copies_done(w);
  }
  wait_for_workers(t);
  for (int i = 0; i < count; i++)
    if (ws[i].started) pthread_join(ws[i].thread, NULL);
}

int ck_team_first_failure(const ck_worker *ws, int count) {
  int stopped = -1;
  for (int i = 0; i < count; i++) {
    if (ws[i].s == CK_OK) continue;
    if (ws[i].s != CK_ERR_INTERRUPTED) return i;
    if (stopped < 0) stopped = i;
  }
  return stopped;
}
