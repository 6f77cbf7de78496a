/* profiles_embed.c — the bundled profiles/NAME.profile files, compiled into the
 * binary (the assembler's .incbin, at build time; the Makefile rebuilds this
 * object when a profile changes), so that a lone build/gsearch still has
 * its emulated devices.  profile.c prefers a file found on disk. */
#define EMBED(sym, file)                                                                           \
	__asm__(".section .rodata\n"                                                               \
		".global " #sym "\n"                                                              \
		".type " #sym ", @object\n"                                                       \
		#sym ":\n"                                                                         \
		".incbin \"" file "\"\n"                                                           \
		".byte 0\n"                                                                        \
		".previous\n");                                                                    \
	extern const char sym[];

EMBED(gs_emu_profile_g80, "profiles/g80.profile")
EMBED(gs_emu_profile_gf100, "profiles/gf100.profile")
EMBED(gs_emu_profile_sm_80, "profiles/sm_80.profile")
EMBED(gs_emu_profile_sm_86, "profiles/sm_86.profile")
EMBED(gs_emu_profile_sm_90, "profiles/sm_90.profile")

/* the order of `gsearch devices` and of emulated ordinals */
const char *const gs_emu_embedded_profiles[] = {
	gs_emu_profile_g80, gs_emu_profile_gf100, gs_emu_profile_sm_80, gs_emu_profile_sm_86,
	gs_emu_profile_sm_90, 0,
};
