/* Found only through pbcheck_add_target(INCLUDE_DIRS): tests/package/flavour_options.c. */
#ifndef PKG_EXTRA_H
#define PKG_EXTRA_H
typedef int pkg_extra_type;
#endif
