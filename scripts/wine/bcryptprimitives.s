# bcryptprimitives.dll for Wine 8 (Debian 12's), which lacks it. Go's Windows
# runtime (since 1.22) loads ProcessPrng from it at start and stops without
# it; Windows 10 and later have it. This one exports ProcessPrng(data, len)
# and forwards to advapi32's SystemFunction036 (RtlGenRandom), which Wine
# has. Its length is a ULONG: Go never asks for 4 GiB of random bytes at once.
	.text
	.globl	DllMain
DllMain:
	movl	$1, %eax
	ret

	.globl	ProcessPrng
ProcessPrng:
	subq	$40, %rsp		# shadow space for the callee, and 16-byte alignment
	call	*__imp_SystemFunction036(%rip)
	movzbl	%al, %eax		# BOOLEAN to BOOL
	addq	$40, %rsp
	ret
