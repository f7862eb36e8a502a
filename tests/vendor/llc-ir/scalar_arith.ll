; scalar arithmetic on the arguments, each index point: v = ((s * i) ^ t)
; + (t >> 2) - (s & 0xff) (i32 scalars; IR mul, xor, ashr, and), then
; out = a + v
target triple = "tpc"

define void @main(i32 %s, i32 %t) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %m = mul i32 %s, %i
  %q = xor i32 %m, %t
  %h = ashr i32 %t, 2
  %sl = and i32 %s, 255
  %u = add i32 %q, %h
  %v = sub i32 %u, %sl
  %vv = insertelement <64 x i32> undef, i32 %v, i32 0
  %vs = shufflevector <64 x i32> %vv, <64 x i32> undef, <64 x i32> zeroinitializer
  %r = add <64 x i32> %a, %vs
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 1, <64 x i32> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
