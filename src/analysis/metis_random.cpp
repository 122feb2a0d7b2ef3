#include "analysis/metis_random.hpp"

#include <elf.h>
#include <link.h>
#include <metis.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace gpuglu::analysis {

namespace {

// glibc's rand(): random() on a TYPE_3 state of 128 bytes seeded with 1; srand() is srandom().
struct ThreadRandom {
  random_data data;
  char state[128];
  bool ready = false;
  random_data& get() {
    if (!ready) {
      std::memset(&data, 0, sizeof data);
      initstate_r(1, state, sizeof state, &data);
      ready = true;
    }
    return data;
  }
};

thread_local ThreadRandom tls_random;

// libmetis as loaded: its load bias, its dynamic section and its RELRO range.
struct Target {
  uintptr_t code = 0;  // an address inside it (METIS_NodeND)
  uintptr_t base = 0;
  const ElfW(Dyn)* dynamic = nullptr;
  uintptr_t relro_begin = 0, relro_end = 0;  // read-only after relocation (PT_GNU_RELRO)
};

// dl_iterate_phdr's callback: the object one of whose loaded segments holds t->code.
int find_object(dl_phdr_info* info, size_t, void* data) {
  auto* t = static_cast<Target*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && t->code >= begin && t->code < begin + ph.p_memsz) holds = true;
  }
  if (!holds) return 0;
  t->base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_DYNAMIC) t->dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + ph.p_vaddr);
    if (ph.p_type == PT_GNU_RELRO) {
      t->relro_begin = info->dlpi_addr + ph.p_vaddr;
      t->relro_end = t->relro_begin + ph.p_memsz;
    }
  }
  return 1;
}

// A slot in RELRO (read-only after relocation) is made writable for the store only; one
// outside it (a lazily bound .got.plt) stays writable, as the loader needs it.
bool write_slot(const Target& t, uintptr_t slot, void* value) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t start = slot & ~(page - 1);
  const size_t length = slot + sizeof(void*) - start <= page ? page : 2 * page;
  const bool relro = slot >= t.relro_begin && slot < t.relro_end;
  if (mprotect(reinterpret_cast<void*>(start), length, PROT_READ | PROT_WRITE) != 0) return false;
  std::memcpy(reinterpret_cast<void*>(slot), &value, sizeof value);
  if (relro) mprotect(reinterpret_cast<void*>(start), length, PROT_READ);
  return true;
}

// Points libmetis's relocations of rand and srand at the per-thread ones. true when every one
// was redirected; false when there were none (a METIS whose GKlib lives in another library
// may draw from rand there, so nothing is assumed) or one could not be written.
bool redirect() {
  Target t;
  t.code = reinterpret_cast<uintptr_t>(&METIS_NodeND);
  dl_iterate_phdr(find_object, &t);
  if (!t.dynamic) return false;
  auto address = [&](ElfW(Addr) p) { return p < t.base ? t.base + p : static_cast<uintptr_t>(p); };
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  uintptr_t jmprel = 0, rela = 0;
  size_t jmprel_size = 0, rela_size = 0;
  for (const ElfW(Dyn)* d = t.dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symtab = reinterpret_cast<const ElfW(Sym)*>(address(d->d_un.d_ptr)); break;
      case DT_STRTAB: strtab = reinterpret_cast<const char*>(address(d->d_un.d_ptr)); break;
      case DT_JMPREL: jmprel = address(d->d_un.d_ptr); break;
      case DT_PLTRELSZ: jmprel_size = d->d_un.d_val; break;
      case DT_RELA: rela = address(d->d_un.d_ptr); break;
      case DT_RELASZ: rela_size = d->d_un.d_val; break;
      default: break;
    }
  }
  if (!symtab || !strtab) return false;
  int found = 0, redirected = 0;
  auto scan = [&](uintptr_t table, size_t bytes) {
    const auto* r = reinterpret_cast<const ElfW(Rela)*>(table);
    for (size_t k = 0; table && k < bytes / sizeof(ElfW(Rela)); ++k) {
      const auto type = ELF64_R_TYPE(r[k].r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      const char* name = strtab + symtab[ELF64_R_SYM(r[k].r_info)].st_name;
      void* to = std::strcmp(name, "rand") == 0    ? reinterpret_cast<void*>(&thread_rand)
                 : std::strcmp(name, "srand") == 0 ? reinterpret_cast<void*>(&thread_srand)
                                                   : nullptr;
      if (!to) continue;
      ++found;
      if (write_slot(t, t.base + r[k].r_offset, to)) ++redirected;
    }
  };
  scan(jmprel, jmprel_size);
  scan(rela, rela_size);
  return found > 0 && redirected == found;
}

}  // namespace

int thread_rand() {
  int32_t r = 0;
  random_r(&tls_random.get(), &r);
  return r;
}

void thread_srand(unsigned seed) { srandom_r(seed, &tls_random.get()); }

bool metis_draws_per_thread() noexcept {
#if defined(__x86_64__) && defined(__linux__)
  static std::once_flag once;
  static bool per_thread = false;
  std::call_once(once, [] { per_thread = redirect(); });
  return per_thread;
#else
  return false;
#endif
}

}  // namespace gpuglu::analysis
