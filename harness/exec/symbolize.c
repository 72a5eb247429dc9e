/*
 * Crash frames and DDI functions named from debug information
 * (symbolize.h). libdwfl opens the module as a file, as a debugger would
 * offline: the function from the DWARF scopes at the address (the symbol
 * table when there are none), the source line from the line table, and
 * the chain of functions the code was inlined into. A module is kept open
 * once read: a worker names the same library's frames over and over.
 */
#define _GNU_SOURCE
#include "exec/symbolize.h"

#include <dlfcn.h>
#include <limits.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static const Dwfl_Callbacks offline = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* Modules read so far, each in a session of its own (offline sessions
 * would place a second module above the first). */
#define SYM_KEPT 8
static struct {
    char *path;
    Dwfl *dwfl;
    Dwfl_Module *mod;
} kept[SYM_KEPT];

static Dwfl_Module *module_open(const char *path)
{
    size_t i;
    for (i = 0; i < SYM_KEPT && kept[i].path; i++)
        if (!strcmp(kept[i].path, path))
            return kept[i].mod;
    if (i == SYM_KEPT) { /* full: the oldest goes */
        free(kept[0].path);
        if (kept[0].dwfl)
            dwfl_end(kept[0].dwfl);
        memmove(&kept[0], &kept[1], sizeof(kept[0]) * (SYM_KEPT - 1));
        i = SYM_KEPT - 1;
    }
    kept[i].path = pbc_xstrdup(path);
    kept[i].dwfl = dwfl_begin(&offline);
    kept[i].mod = kept[i].dwfl ? dwfl_report_offline(kept[i].dwfl, "", path, -1) : NULL;
    if (kept[i].dwfl)
        dwfl_report_end(kept[i].dwfl, NULL, NULL);
    return kept[i].mod; /* NULL is kept too: a module without an ELF file stays nameless */
}

static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
    return name ? name : "??";
}

/* "FILE:LINE" of an inlined call's site, from its call_file/call_line. */
static void call_site(Dwarf_Die *cu, Dwarf_Die *inlined, char *buf, size_t size)
{
    Dwarf_Attribute a;
    Dwarf_Word file = 0, line = 0;
    Dwarf_Files *files;
    size_t nfiles;
    const char *name = NULL;
    if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &a), &file) == 0 &&
        dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && file < nfiles)
        name = dwarf_filesrc(files, file, NULL, NULL);
    if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &a), &line))
        line = 0;
    if (line)
        snprintf(buf, size, "%s:%lu", name ? name : "??", (unsigned long)line);
    else
        snprintf(buf, size, "%s:?", name ? name : "??");
}

/* The compile unit holding addr. libdw finds it through .debug_aranges,
 * which compilers leave out unless asked (-gdwarf-aranges); without it,
 * each unit's own ranges are asked in turn. */
static Dwarf_Die *unit_at(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias)
{
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);
    for (Dwarf_Die *c = NULL; !cu && (c = dwfl_module_nextcu(mod, c, bias));)
        if (dwarf_haspc(c, addr - *bias) > 0)
            cu = c;
    return cu;
}

/* ", inlined into F at FILE:LINE" for each function the inlined code at
 * `inlined` stands in, out to the real one. The scopes around an inlined
 * instance are its caller's, found from the instance itself (the scopes
 * of an address stop at the inlined function's own definition). */
static void inline_chain(Dwarf_Die *cu, Dwarf_Die *inlined, char *buf, size_t size)
{
    Dwarf_Die *chain = NULL, inner = *inlined;
    int n = dwarf_getscopes_die(inlined, &chain);
    size_t at = 0;
    for (int i = 1; i < n && at < size; i++) {
        int tag = dwarf_tag(&chain[i]);
        if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
            continue;
        char site[320];
        call_site(cu, &inner, site, sizeof(site));
        at += (size_t)snprintf(buf + at, size - at, ", inlined into %s at %s", die_name(&chain[i]), site);
        if (tag == DW_TAG_subprogram)
            break;
        inner = chain[i];
    }
    free(chain);
}

int pbc_sym_module(const char *module, uint64_t offset, int return_address, pbc_sym *out)
{
    memset(out, 0, sizeof(*out));
    if (return_address && offset)
        offset--;
    Dwfl_Module *mod = module[0] == '/' ? module_open(module) : NULL;
    GElf_Addr bias = 0;
    if (!mod || !dwfl_module_getelf(mod, &bias))
        return -1;
    Dwarf_Addr addr = bias + offset, cubias = 0;
    Dwarf_Die *cu = unit_at(mod, addr, &cubias);
    Dwarf_Line *line = cu ? dwarf_getsrc_die(cu, addr - cubias) : NULL;
    int lineno = 0;
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (file && dwarf_lineno(line, &lineno))
        lineno = 0;
    if (file)
        snprintf(out->where, sizeof(out->where), lineno ? "%s:%d" : "%s:?", file, lineno);
    Dwarf_Die *scopes = NULL;
    int n = cu ? dwarf_getscopes(cu, addr - cubias, &scopes) : 0;
    int inner = -1; /* the innermost function scope: an inlined one when the code was inlined */
    for (int i = 0; i < n && inner < 0; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram || dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
            inner = i;
    if (inner >= 0) {
        snprintf(out->function, sizeof(out->function), "%s", die_name(&scopes[inner]));
        if (dwarf_tag(&scopes[inner]) == DW_TAG_inlined_subroutine)
            inline_chain(cu, &scopes[inner], out->inlined, sizeof(out->inlined));
    }
    free(scopes);
    if (inner < 0) { /* no debug information here: the symbol table's name */
        const char *sym = dwfl_module_addrname(mod, addr);
        if (sym)
            snprintf(out->function, sizeof(out->function), "%s", sym);
    }
    return out->function[0] ? 0 : -1;
}

int pbc_sym_address(const void *addr, pbc_sym *out)
{
    Dl_info info, self;
    memset(out, 0, sizeof(*out));
    if (!addr || !dladdr(addr, &info) || !info.dli_fbase || !dladdr((const void *)pbc_sym_address, &self))
        return -1;
    char module[PATH_MAX];
    ssize_t n = info.dli_fbase == self.dli_fbase ? readlink("/proc/self/exe", module, sizeof(module) - 1) : -1;
    if (n > 0)
        module[n] = 0; /* pbcheck itself: a built-in target */
    else if (info.dli_fname && info.dli_fname[0] == '/')
        snprintf(module, sizeof(module), "%s", info.dli_fname);
    else if (!info.dli_fname || !realpath(info.dli_fname, module)) /* loaded by a relative path */
        return -1;
    return pbc_sym_module(module, (uint64_t)((const char *)addr - (const char *)info.dli_fbase), 0, out);
}
