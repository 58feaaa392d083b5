# cudakernels: top-level targets.
#   make run      install what is missing (Debian/Ubuntu), build and install the package, and run
#                 gpu_minplus on a small matrix: the first command on a fresh machine
#   make check    build the tarball, `pkg install` it into build/pkg and run every test
#   make bench    the min-plus benchmark against the GPU's ceiling (needs a GPU)
#   make install  `pkg install` the tarball into your Octave
#   make dist     the package tarball, cudakernels-VERSION.tar.gz
#   make build    compile the gateway in src/ (for development)
#   make quick    compile the gateway in src/ (only what changed) and run the tests in the tree,
#                 with no tarball and no pkg install; `make quick T=gpu_minplus` runs one file's tests
#   make -C dev   the C drivers that check and time each kernel version without Octave (dev/)
# CUDA_ARCH (see src/Makefile) narrows the GPUs built for, e.g.
#   make check CUDA_ARCH="-gencode arch=compute_90,code=sm_90"

NAME := cudakernels
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(NAME)-$(VERSION).tar.gz
OCTAVE ?= octave-cli
PREFIX := $(CURDIR)/build/pkg
DIST_FILES := DESCRIPTION INDEX NEWS COPYING README.md Makefile kernels src inst tests bench doc
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
# pkg install runs src/Makefile from Octave: hand it a CUDA_ARCH given here, and only then.
ifneq ($(CUDA_ARCH),)
export CUDA_ARCH
endif

all: build

build:
	$(MAKE) -C src

dist: $(TARBALL)

$(TARBALL): $(shell find $(DIST_FILES) -type f ! -name '*.o' ! -name '*.mex' 2>/dev/null)
	rm -rf build/dist && mkdir -p build/dist/$(NAME)-$(VERSION)
	tar -cf - --exclude='*.o' --exclude='*.mex' $(DIST_FILES) | tar -C build/dist/$(NAME)-$(VERSION) -xf -
	tar -C build/dist -czf $@ $(NAME)-$(VERSION)
	@echo "built $@"

# Install into a private prefix, so that testing never touches the user's own packages.
build/pkg/.installed: $(TARBALL)
	rm -rf $(PREFIX) && mkdir -p $(PREFIX)
	$(OCTAVE) --no-gui --no-init-file --no-history --eval "\
	  pkg prefix '$(PREFIX)' '$(PREFIX)'; pkg local_list '$(PREFIX)/octave_packages'; \
	  pkg install -verbose -local -nodeps '$(TARBALL)'; pkg load $(NAME); \
	  printf ('installed %s in %s\n', '$(NAME)', '$(PREFIX)');"
	touch $@

check: build/pkg/.installed
	tests/run_tests.sh $(PREFIX) $(OCTAVE)

# In the tree: inst/, src/ (the gateway), tests/ and bench/ on the path; T names one file of them.
QUICK_DIRS := inst tests bench
QUICK_FILE := $(if $(T),$(firstword $(wildcard $(T) $(foreach d,$(QUICK_DIRS),$(d)/$(T) $(d)/$(T).m))))
QUICK_ALL := '$(CURDIR)/inst', '$(CURDIR)/tests', '$(CURDIR)/bench'
ifneq ($(filter quick,$(MAKECMDGOALS)),)
ifneq ($(T),)
ifeq ($(QUICK_FILE),)
$(error no test file $(T) in $(QUICK_DIRS))
endif
endif
endif
quick: build
	$(OCTAVE) --no-gui --no-init-file --no-history --eval "\
	  addpath ('$(CURDIR)/src'); addpath ('$(CURDIR)/inst'); addpath ('$(CURDIR)/tests'); \
	  addpath ('$(CURDIR)/bench'); printf ('cudakernels in the tree; GPU: %d\n', gpu_available ()); \
	  exit (run_tests ({$(if $(T),'$(CURDIR)/$(QUICK_FILE)',$(QUICK_ALL))}) > 0);"

install: $(TARBALL)
	$(OCTAVE) --no-gui --no-history --eval "pkg install '$(TARBALL)'"

deps:
	tests/install_deps.sh

run: deps build/pkg/.installed
	$(OCTAVE) --no-gui --no-init-file --no-history --eval "\
	  pkg prefix '$(PREFIX)' '$(PREFIX)'; pkg local_list '$(PREFIX)/octave_packages'; \
	  pkg load $(NAME); addpath ('$(CURDIR)/tests'); first_example ();"

bench: build/pkg/.installed
	$(OCTAVE) --no-gui --no-init-file --no-history --eval "\
	  pkg prefix '$(PREFIX)' '$(PREFIX)'; pkg local_list '$(PREFIX)/octave_packages'; \
	  pkg load $(NAME); addpath ('$(CURDIR)/bench'); bench_minplus ();"

clean:
	$(MAKE) -C src clean
	rm -rf build $(NAME)-*.tar.gz

.PHONY: all build dist check quick install deps run bench clean
